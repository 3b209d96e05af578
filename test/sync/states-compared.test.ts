/**
 * States compared the same way everywhere (issue 24): trimmed and in any case, as `normalizeState` says, in
 * the planner (the State cell), Preview, the journal, the API client's list filter and the sandbox's
 * `?state=`. What goes to the service is always the lower-case form. A State retyped in another case is no
 * edit at all. (The functions' state argument, src/functions/args.ts `optionalChoice`, trims and lower-cases
 * the same way; it is tested with the functions.)
 */
import { InvalidRequestError, SpendClient } from "../../src/api";
import { ALLOWANCE_STATES, EXPENSE_STATES, normalizeState } from "../../src/domain";
import { canonical, trackedSpecOf } from "../../src/sheets";
import { JOURNAL_TABLE, previewInSheet, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { fakeTransport, pageOf } from "../support/fake-transport";
import { cellOf, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

/** How people write paid: a capital, spaces around it, all capitals, a no-break space from a web page, a tab. */
const SPELLINGS = ["Paid", " paid ", "PAID", "paid\u00a0", "\tPaid\n"];

it("normalizeState and the State cell's canonical form agree on every spelling, and on every state of both resources", () => {
  for (const state of [...EXPENSE_STATES, ...ALLOWANCE_STATES]) {
    for (const typed of [state, state.toUpperCase(), ` ${state[0].toUpperCase()}${state.slice(1)}\u00a0`]) {
      expect([normalizeState(typed), canonical("state", typed)]).toEqual([state, state]);
    }
  }
});

describe("the State cell: planner, Preview and journal", () => {
  it.each(SPELLINGS)("%j is paid: previewed and sent as paid, the journal says paid", async (typed) => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
    edit(f, table, e.id, { State: typed, "Paid ID": "PAY-1" });
    const preview = await previewInSheet(f.workbook, table);
    expect(preview.rows.map((r) => [r.id, r.kind, r.patch])).toEqual([[e.id, "change", { state: "paid", paid_id: "PAY-1" }]]);
    expect(cellOf(f, table, e.id, "Sync status")).toBe("Will send: approved → paid (Paid ID: PAY-1)");
    const report = await runSync(f.client, f.workbook, preview, { runId: "r" });
    expect(report.counts.applied).toBe(1);
    expect(f.sandbox.store.expense(f.sub, e.id)).toMatchObject({ state: "paid", paid_id: "PAY-1" });
    const j = tableView(f.excel, JOURNAL_TABLE);
    expect(j.rows.map((r) => [r[j.column("From")], r[j.column("To")], r[j.column("Fields sent")], r[j.column("Outcome")]])).toEqual([
      ["approved", "paid", "State paid, Paid ID PAY-1", "sending"],
      ["approved", "paid", "State paid, Paid ID PAY-1", "applied"],
    ]);
  });

  it("a State retyped in another case or with spaces is no edit: nothing to preview, nothing sent", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b] = f.sandbox.store.expensesOf(f.sub).filter((x) => x.state === "approved");
    edit(f, table, a.id, { State: "Approved" });
    edit(f, table, b.id, { State: " APPROVED\u00a0" });
    const preview = await previewInSheet(f.workbook, table);
    expect(preview.rows).toEqual([]);
    expect([cellOf(f, table, a.id, "Sync status"), cellOf(f, table, b.id, "Sync status")]).toEqual(["", ""]);
  });

  it("an invalid state is named as typed, whatever its case", async () => {
    const table = await loadFor(f, { resource: "allowances", state: "approved" });
    const a = f.sandbox.store.allowancesOf(f.sub).find((x) => x.state === "approved")!;
    edit(f, table, a.id, { State: " Payed " });
    const preview = await previewInSheet(f.workbook, table);
    expect(preview.rows.map((r) => [r.kind, r.message])).toEqual([["invalid", '"payed" is not a state of an allowance; choose accounted or paid.']]);
  });
});

// A state read from a table's cell is text: the list Sync states asks (trackedSpecOf(...).list) checks it once
// (api/list-filters.ts); listExpenses and listAllowances themselves take a typed state.
const listByText = (client: SpendClient, resource: "expense" | "allowance", typed: string) =>
  trackedSpecOf(resource).list(client, "s-1", typed, {});

describe("the list filter of a state written as text (what Sync states reads from a cell)", () => {
  it.each(SPELLINGS)("%j is sent as state=paid, for expenses and allowances", async (typed) => {
    const t = fakeTransport((request) => ({ body: pageOf(request.url, 0) }));
    const client = new SpendClient({ baseUrl: "https://api.example.com", enterpriseId: "e-1", apiKey: "sk_test_states", transport: t.transport });
    await listByText(client, "expense", typed).all();
    await listByText(client, "allowance", typed).all();
    expect(t.requests.map((r) => new URL(r.url).searchParams.get("state"))).toEqual(["paid", "paid"]);
  });

  it("a state neither resource has is refused before anything is sent, quoting what was typed", () => {
    const t = fakeTransport(() => ({ body: {} }));
    const client = new SpendClient({ baseUrl: "https://api.example.com", enterpriseId: "e-1", apiKey: "sk_test_states", transport: t.transport });
    expect(() => listByText(client, "expense", " Payed ")).toThrow(new InvalidRequestError("state must be one of draft, pending, approved, accounted, paid, rejected; got ' Payed '."));
    expect(() => listByText(client, "allowance", "Draft")).toThrow(new InvalidRequestError("state must be one of pending, approved, accounted, paid, rejected; got 'Draft'."));
    expect(t.requests).toEqual([]);
  });

  it("against the sandbox: any spelling lists exactly the paid records", async () => {
    const paid = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "paid").map((e) => e.id).sort();
    expect(paid.length).toBeGreaterThan(0);
    for (const typed of SPELLINGS) {
      const ids = (await trackedSpecOf("expense").list(f.client, f.sub, typed, {}).all()).map((e) => e.id).sort();
      expect(ids).toEqual(paid);
    }
  });
});

describe("the sandbox's ?state=", () => {
  it.each(["Paid", "%20paid%20", "PAID", "paid%C2%A0"])("state=%s lists what state=paid lists", async (query) => {
    const path = `/public/v1/enterprises/${f.enterprise.id}/subsidiaries/${f.sub}`;
    const get = async (state: string, resource: string) => {
      const r = await fetch(`${f.sandbox.baseUrl}${path}/${resource}/?page_size=1000&state=${state}`, { headers: { Authorization: `Api-Key ${f.enterprise.api_key}` } });
      expect(r.status).toBe(200);
      return ((await r.json()) as { results: { id: string; state: string }[] }).results;
    };
    for (const resource of ["expenses", "allowances"]) {
      const exact = await get("paid", resource);
      expect(exact.length).toBeGreaterThan(0);
      expect(exact.every((r) => r.state === "paid")).toBe(true);
      expect((await get(query, resource)).map((r) => r.id)).toEqual(exact.map((r) => r.id));
    }
  });

  it("an unknown state is still a 400 quoting what was sent", async () => {
    const r = await fetch(`${f.sandbox.baseUrl}/public/v1/enterprises/${f.enterprise.id}/subsidiaries/${f.sub}/expenses/?state=%20Payed`, {
      headers: { Authorization: `Api-Key ${f.enterprise.api_key}` },
    });
    expect([r.status, await r.json()]).toEqual([400, { status: 400, error: "state must be one of draft, pending, approved, accounted, paid, rejected; got ' Payed'." }]);
  });
});
