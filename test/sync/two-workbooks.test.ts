/**
 * Issue 12's race: two workbooks (two Excels, two clients, two people) on the same 100 approved expenses.
 * A marks them accounted (ACC-A-n), B paid (ACC-B-n, PAY-B-n); both sync at once. The service has no
 * conditional update, so the add-in must keep the window between the read that justifies a PATCH and the
 * PATCH to one round trip, confirm what it changed, and tell each person what the server holds.
 */
import { fetchTransport, type RawRequest } from "../../src/api/transport";
import { SpendClient } from "../../src/api";
import { describeTracked, loadTable, type TrackedValues } from "../../src/sheets";
import { ExcelWorkbook, type ExcelHost } from "../../src/sheets/excel";
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { tableView } from "../support/excel";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { Recorder } from "./recorder";

let f: SandboxFixture;
afterEach(() => f?.sandbox.close());

interface Person {
  name: string;
  excel: FakeExcel;
  workbook: ExcelWorkbook;
  client: SpendClient;
  recorder: Recorder;
  table: string;
  want: (n: number) => Partial<TrackedValues>;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

it("two workbooks, conflicting edits on the same 100 records, overlapping runs: each learns what the server did", async () => {
  f = await withSandbox();
  const sub = f.enterprise.subsidiaries[0];
  const records = f.sandbox.store.expensesOf(sub).filter((e) => e.state === "approved").slice(0, 100);
  const index = new Map(records.map((e, i) => [e.id, i]));
  // Records 0-9: A's PATCH leaves once B has read the record, and B's once A's PATCH answered: both read
  // "approved", B's PATCH (accounted → paid is allowed) replaces A's values. Records 10-19: the other way
  // round, so A's PATCH meets "Cannot change state from 'paid'" and must read the record to say why.
  const read = { A: new Map(records.map((e) => [e.id, deferred()])), B: new Map(records.map((e) => [e.id, deferred()])) };
  const answered = { A: new Map(records.map((e) => [e.id, deferred()])), B: new Map(records.map((e) => [e.id, deferred()])) };
  const idOf = (r: RawRequest) => /\/expenses\/([0-9a-f-]{36})\//.exec(r.url)?.[1] ?? "";
  const gate = (who: "A" | "B") => async (r: RawRequest) => {
    if (r.method !== "PATCH") return;
    const id = idOf(r);
    const i = index.get(id) ?? -1;
    const [first, second] = i < 10 ? ["A", "B"] as const : i < 20 ? ["B", "A"] as const : [null, null];
    if (who === first) await read[second].get(id)!.promise;
    if (who === second) await answered[first].get(id)!.promise;
  };
  const people: Person[] = [];
  for (const [name, want] of [
    ["A", (n: number) => ({ state: "accounted", accounted_id: `ACC-A-${n}` })],
    ["B", (n: number) => ({ state: "paid", accounted_id: `ACC-B-${n}`, paid_id: `PAY-B-${n}` })],
  ] as const) {
    const excel = new FakeExcel();
    const recorder = new Recorder(() => excel.stats.syncs);
    const inner = recorder.wrap(fetchTransport, gate(name));
    const client = new SpendClient({
      baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key,
      transport: async (r) => {
        try {
          return await inner(r);
        } finally {
          (r.method === "PATCH" ? answered : read)[name].get(idOf(r))?.resolve();
        }
      },
    });
    const workbook = new ExcelWorkbook(excel as unknown as ExcelHost);
    const { tableName } = await loadTable(client, workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: sub, state: "approved" });
    people.push({ name, excel, workbook, client, recorder, table: tableName, want });
  }
  for (const p of people) {
    const t = tableView(p.excel, p.table);
    records.forEach((e, n) => {
      const row = t.values("Expense ID").indexOf(e.id);
      const w = p.want(n);
      p.excel.user.paste(t.sheet.name, t.address("State", row), w.state!);
      if (w.accounted_id) p.excel.user.paste(t.sheet.name, t.address("Accounted ID", row), w.accounted_id);
      if (w.paid_id) p.excel.user.paste(t.sheet.name, t.address("Paid ID", row), w.paid_id);
    });
  }
  const previews = await Promise.all(people.map((p) => previewSync(p.workbook, p.table)));
  const reports = await Promise.all(people.map((p, i) => runSync(p.client, p.workbook, previews[i], { by: `person ${p.name}` })));

  const landed = new Map<string, number>();
  const loaded: TrackedValues = { state: "approved", accounted_id: "", paid_id: "", paid_at: "" };
  for (const [i, p] of people.entries()) {
    // No PATCH was justified by a read older than one round trip.
    expect(p.recorder.patchesWithoutFreshRead()).toEqual([]);
    const t = tableView(p.excel, p.table);
    const journal = tableView(p.excel, JOURNAL_TABLE);
    const status = (id: string) => t.values("Sync status")[t.values("Expense ID").indexOf(id)] as string;
    records.forEach((e, n) => {
      const server = f.sandbox.store.expense(sub, e.id)!;
      const final: TrackedValues = { state: server.state, accounted_id: server.accounted_id ?? "", paid_id: server.paid_id ?? "", paid_at: server.paid_at ?? "" };
      const wanted = { ...loaded, ...p.want(n) };
      const mine = f.sandbox.store.transitionsOf(e.id).filter((tr) => JSON.stringify(tr.fields) === JSON.stringify(Object.fromEntries(Object.entries(p.want(n)).filter(([k]) => k !== "state"))) && tr.to === wanted.state);
      // The journal agrees with the server: an "applied" answer to a PATCH exactly where this person's PATCH landed.
      const appliedLines = journal.rows.filter((r) => r[journal.column("Record ID")] === e.id && r[journal.column("Outcome")] === "applied");
      expect([e.id, appliedLines.length]).toEqual([e.id, mine.length]);
      landed.set(e.id, (landed.get(e.id) ?? 0) + appliedLines.length);
      expect(journal.rows.filter((r) => r[journal.column("Record ID")] === e.id).every((r) => r[journal.column("By")] === `person ${p.name}`)).toBe(true);
      // The row tells what the server holds.
      if (JSON.stringify(final) === JSON.stringify(wanted)) {
        expect([e.id, status(e.id)]).toEqual([e.id, expect.stringMatching(/^(Applied|Already applied) /)]);
      } else {
        expect([e.id, status(e.id)]).toEqual([e.id, expect.stringMatching(/^(Changed by someone else|Conflict, not sent) /)]);
        // A conflict names what the server holds field by field, against what was loaded; an overwrite names it whole.
        if (status(e.id).startsWith("Conflict")) {
          const words = { state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at" } as const;
          for (const k of ["state", "accounted_id", "paid_id", "paid_at"] as const) {
            if (final[k] !== loaded[k]) expect(status(e.id)).toContain(`${words[k]} is now ${final[k]} (you loaded ${loaded[k] || "empty"})`);
          }
        } else expect(status(e.id)).toContain(describeTracked(final));
      }
      // The scripted races end as they must.
      if (n < 10) expect([e.id, status(e.id).split(" ").slice(0, 4).join(" ")]).toEqual([e.id, p.name === "A" ? "Changed by someone else" : expect.stringMatching(/^Applied /)]);
      if (n >= 10 && n < 20) expect([e.id, status(e.id).split(" ")[0]]).toEqual([e.id, p.name === "A" ? "Conflict," : "Applied"]);
    });
    expect(reports[i].counts.applied + reports[i].counts["already-applied"] + reports[i].counts.overwritten + reports[i].counts.conflict).toBe(100);
  }
  // Every transition the server made is the "applied" line of one journal, and every record moved.
  for (const e of records) {
    expect([e.id, f.sandbox.store.transitionsOf(e.id).length]).toEqual([e.id, landed.get(e.id)]);
    expect(landed.get(e.id)).toBeGreaterThan(0);
  }
});
