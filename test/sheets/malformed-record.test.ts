/**
 * One bad record costs one row (issue 25: a single bad created_at at results[180] failed the whole load). A
 * record that does not match the API loads as it was sent, read-only, its status naming the wrong field; the
 * other rows load as ever; the load's report counts it; Sync states refuses an edit of it and sends the rest;
 * a refresh keeps it read-only until the service sends it right.
 */
import { loadTable, type LoadParams } from "../../src/sheets";
import { previewSync, runSync } from "../../src/sync";
import { edit } from "../support/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
afterEach(() => f.sandbox.close());

const BAD_CREATED = "2026-13-45T00:00:00Z";
const NOTE = `Read-only: the service sent created_at "${BAD_CREATED}" (expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z), which does not match the API. Sync states will not send this row; ask your Spend Sync contact.`;

describe("an expense list of 1,000 with one malformed record", () => {
  beforeEach(async () => {
    f = await withExcel({ scale: 10 / 3 });
  });

  const params = () => ({ resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);

  it("loads 999 rows as ever plus the bad one in its place, read-only, its status naming the field", async () => {
    const expenses = f.sandbox.store.expensesOf(f.sub);
    expect(expenses).toHaveLength(1000);
    const bad = expenses[180];
    bad.created_at = BAD_CREATED;
    const report = await loadTable(f.client, f.workbook, params());
    expect({ count: report.count, added: report.added, malformed: report.malformed }).toEqual({ count: 1000, added: 1000, malformed: 1 });

    const t = tableView(f.excel, report.tableName);
    expect(t.values("Expense ID")).toEqual(expenses.map((e) => e.id));
    const status = t.values("Sync status");
    expect(status[180]).toBe(NOTE);
    expect(status.filter((s, i) => i !== 180 && s !== "")).toEqual([]);
    // The bad record shows as it was sent: the wrong value as its text, every other field as on any row.
    expect(t.values("Created (UTC)")[180]).toBe(BAD_CREATED);
    expect(t.values("Description")[180]).toBe(bad.description);
    expect(t.values("Amount")[180]).toBe(bad.amount);
    expect(t.values("State")[180]).toBe(bad.state);
    // Its neighbours are rendered as usual (a date serial, not text).
    expect(typeof t.values("Created (UTC)")[179]).toBe("number");
    expect(typeof t.values("Created (UTC)")[181]).toBe("number");
  });

  it("Sync states refuses an edit of the bad row and sends the others'", async () => {
    const expenses = f.sandbox.store.expensesOf(f.sub);
    const approved = expenses.filter((e) => e.state === "approved");
    const [bad, good] = approved;
    bad.created_at = BAD_CREATED;
    const report = await loadTable(f.client, f.workbook, params());
    edit(f, report.tableName, bad.id, { State: "accounted", "Accounted ID": "ACC-BAD" });
    edit(f, report.tableName, good.id, { State: "accounted", "Accounted ID": "ACC-GOOD" });
    // The status cell is the user's to overwrite: the refusal does not depend on it.
    edit(f, report.tableName, bad.id, { "Sync status": "" });

    const preview = await previewSync(f.workbook, report.tableName);
    const byId = Object.fromEntries(preview.rows.map((r) => [r.id, r]));
    expect(byId[bad.id]).toMatchObject({
      kind: "invalid",
      message: `This record came from the service with created_at "${BAD_CREATED}" (expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z), which does not match the API, so the row is read-only: Sync states does not send it. Undo the edit.`,
    });
    expect(byId[good.id]).toMatchObject({ kind: "change" });

    const before = f.sandbox.store.transitionsOf(bad.id).length;
    const result = await runSync(f.client, f.workbook, preview);
    expect(result.counts).toMatchObject({ applied: 1, invalid: 1 });
    expect(f.sandbox.store.transitionsOf(bad.id)).toHaveLength(before);
    expect(f.sandbox.store.expense(f.sub, bad.id)!.state).toBe("approved");
    expect(f.sandbox.store.expense(f.sub, good.id)).toMatchObject({ state: "accounted", accounted_id: "ACC-GOOD" });
  });

  it("a refresh keeps the row read-only and the user's edit on it; once the service sends it right, it syncs", async () => {
    const bad = f.sandbox.store.expensesOf(f.sub).find((e) => e.state === "approved")!;
    const created = bad.created_at;
    bad.created_at = BAD_CREATED;
    const report = await loadTable(f.client, f.workbook, params());
    edit(f, report.tableName, bad.id, { State: "accounted", "Accounted ID": "ACC-LATER" });

    const again = await loadTable(f.client, f.workbook, params());
    expect(again.malformed).toBe(1);
    let t = tableView(f.excel, report.tableName);
    let row = t.values("Expense ID").indexOf(bad.id);
    expect(t.values("State")[row]).toBe("accounted");
    expect(t.values("Sync status")[row]).toBe(NOTE);
    expect((await previewSync(f.workbook, report.tableName)).rows.find((r) => r.id === bad.id)?.kind).toBe("invalid");

    bad.created_at = created;
    const fixed = await loadTable(f.client, f.workbook, params());
    expect(fixed.malformed).toBe(0);
    t = tableView(f.excel, report.tableName);
    row = t.values("Expense ID").indexOf(bad.id);
    // Now only the kept edit is left to say (issue 24): the row is no longer read-only.
    expect(t.values("Sync status")[row]).toBe("Unsynced: accounted, Accounted ID ACC-LATER (server: approved)");
    expect(t.values("State")[row]).toBe("accounted");
    const preview = await previewSync(f.workbook, report.tableName);
    expect(preview.rows.find((r) => r.id === bad.id)).toMatchObject({ kind: "change", patch: { state: "accounted", accounted_id: "ACC-LATER" } });
    expect((await runSync(f.client, f.workbook, preview)).counts.applied).toBe(1);
  });
});

it("a malformed movement on page 1 of 2 costs its row; page 2 loads too", async () => {
  f = await withExcel();
  const card = f.sandbox.store.cardsOf(f.enterprise.id)[0];
  const period = f.sandbox.store.billingPeriodsOf(card.id)[0];
  const movements = f.sandbox.store.movementsOf(period.id);
  expect(movements.length).toBeGreaterThan(100);
  Object.assign(movements[30], { transaction_date: "31/02/2026", amount: { amount: "12,50", currency: "CLP" } });
  const report = await loadTable(f.client, f.workbook, {
    resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: period.id,
  } as LoadParams);
  expect({ count: report.count, malformed: report.malformed }).toEqual({ count: movements.length, malformed: 1 });
  const t = tableView(f.excel, report.tableName);
  const ids = t.values(t.header[0]).map(String);
  expect(new Set(ids)).toEqual(new Set(movements.map((m) => m.id)));
  const notes = t.values("Sync status").map(String);
  expect(notes[ids.indexOf(movements[30].id)]).toBe(
    'Read-only: the service sent amount.amount "12,50" (Invalid input: expected number, received string) and transaction_date "31/02/2026" (expected a real date written YYYY-MM-DD), which does not match the API. Sync states will not send this row; ask your Spend Sync contact.',
  );
  expect(notes.filter((n) => n !== "")).toHaveLength(1);
});
