/**
 * Hostile text from the service, through the taskpane's path (the client, loadTable, the adapter) into the
 * strict in-memory Excel, for every resource, and back out through a sync's write-back: 0 formulas, 0
 * changed values, in the tables, their snapshots and the journal.
 */
import { loadTable, type LoadParams } from "../../src/sheets";
import { previewSync, runSync } from "../../src/sync";
import { fitCell } from "../../src/sheets/port/cells";
import { HOSTILE_TEXT } from "../support/hostile-text";
import { edit } from "../support/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const pick = (i: number) => HOSTILE_TEXT[i % HOSTILE_TEXT.length];

/** Every cell of every sheet: how many hold a formula. */
function formulasInWorkbook(): string[] {
  const found: string[] = [];
  for (const sheet of f.excel.model.sheets) {
    for (const [row, line] of sheet.cells) for (const [column, cell] of line) if (cell.formula !== undefined) found.push(`${sheet.name}!${row},${column}: ${cell.formula}`);
  }
  return found;
}

/** The values of a table column, for the records in `ids` order. */
function columnByIds(tableName: string, header: string, ids: string[]) {
  const t = tableView(f.excel, tableName);
  const idColumn = t.values(t.header[0]).map(String);
  return ids.map((id) => t.values(header)[idColumn.indexOf(id)]);
}

it("every resource loads hostile service text as exactly that text, with no formula anywhere in the workbook", async () => {
  const store = f.sandbox.store;
  const ent = f.enterprise.id;
  const expenses = store.expensesOf(f.sub);
  expenses.forEach((e, i) => Object.assign(e, { description: pick(i), provider: pick(i + 7) }));
  const allowances = store.allowancesOf(f.sub);
  allowances.forEach((a, i) => Object.assign(a, { description: pick(i + 11) }));
  const cards = store.cardsOf(ent);
  cards.forEach((c, i) => store.person(c.user_id) && Object.assign(store.person(c.user_id)!, { first_name: pick(i + 5), last_name: pick(i + 13) }));
  const card = cards[0];
  const period = store.billingPeriodsOf(card.id)[0];
  const movements = store.movementsOf(period.id);
  movements.forEach((m, i) => Object.assign(m, { description: pick(i + 17), reference_code: pick(i + 19) }));

  const load = (params: Record<string, unknown>) => loadTable(f.client, f.workbook, { enterpriseId: ent, ...params } as LoadParams);
  const e = await load({ resource: "expenses", subsidiaryId: f.sub });
  const a = await load({ resource: "allowances", subsidiaryId: f.sub });
  const c = await load({ resource: "cards", expand: ["user"] });
  const m = await load({ resource: "movements", cardId: card.id, billingPeriodId: period.id });

  expect(formulasInWorkbook()).toEqual([]);
  const ids = (list: { id: string }[]) => list.map((r) => r.id);
  expect(columnByIds(e.tableName, "Description", ids(expenses))).toEqual(expenses.map((_, i) => fitCell(pick(i))));
  expect(columnByIds(e.tableName, "Provider", ids(expenses))).toEqual(expenses.map((_, i) => fitCell(pick(i + 7))));
  expect(columnByIds(a.tableName, "Description", ids(allowances))).toEqual(allowances.map((_, i) => fitCell(pick(i + 11))));
  const holders = tableView(f.excel, c.tableName).header.find((h) => /holder/i.test(h))!;
  expect(holders).toBeDefined();
  expect(columnByIds(c.tableName, holders, ids(cards))).toEqual(cards.map((card) => {
    const person = store.person(card.user_id)!;
    return fitCell(`${person.first_name} ${person.last_name}`);
  }));
  expect(columnByIds(m.tableName, "Description", ids(movements))).toEqual(movements.map((_, i) => fitCell(pick(i + 17))));
});

it("a sync writes hostile ids back as exactly that text: the row, the snapshot and the journal hold no formula", async () => {
  const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" } as LoadParams);
  const approved = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 40);
  // (A leading apostrophe is Excel's "this is text" mark for what a person types or pastes: not sent as data.)
  const short = HOSTILE_TEXT.filter((t) => t.length < 200 && !t.startsWith("'"));
  // Accounted ID takes formulas (issue 47: General, not Text), so the person marks these as text with an apostrophe, as in
  // any Excel column; what the cell then shows is what is sent.
  approved.forEach((e, i) => edit(f, report.tableName, e.id, { State: "accounted", "Accounted ID": `'${short[i % short.length]}` }));
  const preview = await previewSync(f.workbook, report.tableName);
  // Some of them look like amounts or dates ("-1", "1E5"): Preview questions those, and this user confirms them.
  const result = await runSync(f.client, f.workbook, preview, { sendChecked: true });
  expect(result.counts.applied).toBe(approved.length);
  // Ids a person types are taken without surrounding white space (the planner's rule), the rest exactly.
  const sent = approved.map((_, i) => short[i % short.length].trim());
  expect(approved.map((e) => f.sandbox.store.expense(f.sub, e.id)!.accounted_id)).toEqual(sent);
  expect(columnByIds(report.tableName, "Accounted ID", approved.map((e) => e.id))).toEqual(sent);
  expect(formulasInWorkbook()).toEqual([]);
});

/** Until a batch waits for the user's edit to end (bounded: fails the test rather than hanging). */
async function blockedOn(edit: { readonly waiting: number }): Promise<void> {
  for (let i = 0; i < 10_000 && edit.waiting === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(edit.waiting).toBe(1);
}

it("a load and a sync started while the user is typing in a cell wait for the edit, then succeed", async () => {
  const params = { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" } as LoadParams;
  const first = await loadTable(f.client, f.workbook, params);
  const id = f.sandbox.store.expensesOf(f.sub).find((e) => e.state === "approved")!.id;
  edit(f, first.tableName, id, { State: "accounted", "Accounted ID": "ACC-EDIT-1" });
  const preview = await previewSync(f.workbook, first.tableName);

  const typing = f.excel.user.beginCellEdit("Sheet1", "A1");
  const syncing = runSync(f.client, f.workbook, preview);
  let synced = false;
  void syncing.then(() => (synced = true));
  await blockedOn(typing);
  expect(synced).toBe(false);
  expect(f.sandbox.store.expense(f.sub, id)!.state).toBe("approved");
  typing.end();
  expect((await syncing).counts.applied).toBe(1);

  const again = f.excel.user.beginCellEdit("Sheet1", "A1");
  const loading = loadTable(f.client, f.workbook, params);
  await blockedOn(again);
  again.end();
  expect((await loading).count).toBe(f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").length);
  expect(f.excel.runs.every((options) => options.delayForCellEdit === true)).toBe(true);
});
