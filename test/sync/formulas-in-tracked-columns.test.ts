/**
 * Issue 47: State, Accounted ID, Paid ID and Paid at filled by lookups into the bank's and the ERP's files
 * (XLOOKUP, VLOOKUP, INDEX/MATCH, structured references), against the real sandbox. Preview and Sync send what
 * Excel calculated, never the formula's text; an error or an empty lookup is named with its cell; Refresh keeps
 * a formula while its value differs from the server's, and once the server holds that value the cell shows it
 * (the formula is replaced: docs/excel-checks.md, "Formulas in the tracked columns").
 */
import { refreshTable } from "../../src/sheets";
import { previewInSheet, previewSync, runSync } from "../../src/sync";
import { REFRESH_NOW, tableView, type ExcelFixture } from "../support/excel";
import { loadFor, withApprovedLoaded } from "../support/sync";

let f: ExcelFixture;
let tableName: string;

beforeEach(async () => ({ f, tableName } = await withApprovedLoaded()));
afterEach(() => f.sandbox.close());

/** 2026-11-20 09:00 UTC plus `hours`, as an Excel serial. */
const serial = (hours: number) => Date.UTC(2026, 10, 20, 9 + hours) / 86_400_000 + 25569;
const iso = (hours: number) => new Date(Date.UTC(2026, 10, 20, 9 + hours)).toISOString().replace(".000Z", "Z");

/** The bank's file as a table Bank (Ref, Payment id, Paid on) and the ERP's export as a plain range (number, document). */
async function addFiles(bank: [number, string, number][], erp: [number, string][]): Promise<void> {
  await f.excel.run(async (context) => {
    const sheet = context.workbook.worksheets.add("Bank file");
    sheet.getRangeByIndexes(0, 0, bank.length + 1, 3).values = [["Ref", "Payment id", "Paid on"], ...bank];
    context.workbook.tables.add(`'Bank file'!A1:C${bank.length + 1}`, true).name = "Bank";
    context.workbook.worksheets.add("ERP").getRangeByIndexes(0, 0, erp.length + 1, 2).values = [["Number", "Document"], ...erp];
    await context.sync();
  });
}

const PAID_ID = "=XLOOKUP([@[Expense #]],Bank[Ref],Bank[Payment id])";
const ACCOUNTED_ID = "=VLOOKUP([@[Expense #]],ERP!$A$2:$B$400,2,FALSE)";
const PAID_AT = "=INDEX(Bank[Paid on],MATCH([@[Expense #]],Bank[Ref],0))";

/** The person types State and the three lookups in the first row, then fills them down over `rows` rows (Ctrl+D). */
function fillLookups(rows: number, first = 0): void {
  const t = tableView(f.excel, tableName);
  const sheet = t.sheet.name;
  f.excel.user.type(sheet, t.address("State", first), "paid");
  f.excel.user.type(sheet, t.address("Accounted ID", first), ACCOUNTED_ID);
  f.excel.user.type(sheet, t.address("Paid ID", first), PAID_ID);
  f.excel.user.type(sheet, t.address("Paid at (UTC)", first), PAID_AT);
  if (rows > 1) f.excel.user.fillDown(sheet, `${t.address("State", first)}:${t.address("Paid at (UTC)", first + rows - 1)}`);
}

it("50 rows filled by lookups: Preview and Sync send the values Excel calculated; the cells then hold the server's values", async () => {
  const t = tableView(f.excel, tableName);
  const numbers = (t.values("Expense #") as number[]).slice(0, 50);
  const ids = (t.values("Expense ID") as string[]).slice(0, 50);
  expect(numbers).toHaveLength(50);
  // The files list them in another order than the table, with lines for other records between.
  await addFiles(
    [...numbers].reverse().flatMap((n, i) => [[n, `PAY-${n}`, serial(i)], [n + 100_000, "PAY-OTHER", serial(0)]] as [number, string, number][]),
    numbers.map((n) => [n, `ACC-${n}`]),
  );
  fillLookups(50);
  expect(tableView(f.excel, tableName).formula("Paid ID", 49)).toBe(PAID_ID);
  expect(tableView(f.excel, tableName).format("Paid ID", 0)).toBe("General");

  const preview = await previewSync(f.workbook, tableName);
  expect(preview.counts).toMatchObject({ change: 50, check: 0, invalid: 0 });
  const expected = numbers.map((n, i) => ({ state: "paid", accounted_id: `ACC-${n}`, paid_id: `PAY-${n}`, paid_at: iso(49 - i) }));
  expect(preview.rows.map((r) => r.patch)).toEqual(expected);

  const report = await runSync(f.client, f.workbook, preview);
  expect(report.counts.applied).toBe(50);
  expect(ids.map((id) => f.sandbox.store.expense(f.sub, id)!).map((e) => ({ state: e.state, accounted_id: e.accounted_id, paid_id: e.paid_id, paid_at: e.paid_at })))
    .toEqual(expected.map((e) => ({ ...e, paid_at: e.paid_at.replace("Z", ".000Z") })).map((e) => ({ ...e, paid_at: expect.stringMatching(new RegExp(`^${e.paid_at.slice(0, 19)}`)) })));
  // The server holds the computed values: the cells show them, the formulas are gone (they would follow next month's file).
  const after = tableView(f.excel, tableName);
  expect(after.values("Paid ID").slice(0, 50)).toEqual(numbers.map((n) => `PAY-${n}`));
  expect(Array.from({ length: 50 }, (_, r) => after.formula("Paid ID", r) ?? after.formula("Accounted ID", r) ?? after.formula("Paid at (UTC)", r) ?? null)).toEqual(Array(50).fill(null));
  expect((await previewSync(f.workbook, tableName)).counts.change).toBe(0);
}, 120_000);

it("a lookup that finds nothing is named with its cell and never sent; an empty one is sent only when confirmed", async () => {
  const t = tableView(f.excel, tableName);
  const [, , n2] = t.values("Expense #") as number[];
  const [id0, id1, id2] = t.values("Expense ID") as string[];
  const [n0, n1] = t.values("Expense #") as number[];
  await addFiles([[n2, "PAY-2", serial(2)]], [[n0, "ACC-0"], [n1, "ACC-1"], [n2, "ACC-2"]]);
  fillLookups(3);
  // Row 2's Paid ID lookup is wrapped so that it says nothing when it finds nothing; its Paid at is cleared.
  f.excel.user.type(t.sheet.name, t.address("Paid ID", 1), '=IFERROR(XLOOKUP([@[Expense #]],Bank[Ref],Bank[Payment id]),"")');
  f.excel.user.clear(t.sheet.name, t.address("Paid at (UTC)", 1));

  const preview = await previewInSheet(f.workbook, tableName);
  const row = (id: string) => preview.rows.find((r) => r.id === id)!;
  expect(row(id0)).toMatchObject({ kind: "invalid" });
  expect(row(id0).message).toBe(`Paid ID is #N/A, from the formula in ${t.address("Paid ID", 0)}; Paid at is #N/A, from the formula in ${t.address("Paid at (UTC)", 0)}: ` +
    "an error is never sent. Fix the formula or what it looks up (a lookup that finds nothing gives #N/A), then preview again.");
  expect(row(id1)).toMatchObject({ kind: "check", patch: { state: "paid", accounted_id: "ACC-1" } });
  expect(row(id1).message).toBe(`Paid ID is empty, from the formula in ${t.address("Paid ID", 1)}: did its lookup find nothing? Sent only if you confirm it.`);
  expect(row(id2)).toMatchObject({ kind: "change", patch: { paid_id: "PAY-2" } });
  // The row's status says it, in the sheet.
  expect(String(tableView(f.excel, tableName).values("Sync status")[0])).toContain(`Paid ID is #N/A, from the formula in ${t.address("Paid ID", 0)}`);

  await runSync(f.client, f.workbook, preview);
  expect(f.sandbox.store.expense(f.sub, id0)!.state).toBe("approved");
  expect(f.sandbox.store.expense(f.sub, id1)!.state).toBe("approved");
  expect(f.sandbox.store.expense(f.sub, id2)!).toMatchObject({ state: "paid", paid_id: "PAY-2" });
}, 120_000);

it("Refresh keeps a lookup while its value differs from the server's; once the server holds that value, the cell shows it", async () => {
  // A table of every state, so that the record stays in it once paid.
  tableName = await loadFor(f, { resource: "expenses" });
  const t = tableView(f.excel, tableName);
  const first = (t.values("State") as string[]).indexOf("approved");
  const n0 = (t.values("Expense #") as number[])[first];
  const id0 = (t.values("Expense ID") as string[])[first];
  await addFiles([[n0, "PAY-0", serial(0)]], [[n0, "ACC-0"]]);
  fillLookups(1, first);
  const formulasAt = (view: ReturnType<typeof tableView>) => [view.formula("Paid ID", first), view.formula("Accounted ID", first), view.formula("Paid at (UTC)", first)];
  for (const wholeTable of [false, true]) {
    const report = await refreshTable(f.client, f.workbook, tableName, { now: REFRESH_NOW, wholeTable });
    expect(report.keptEdits).toBe(1);
    const kept = tableView(f.excel, tableName);
    expect(formulasAt(kept)).toEqual([PAID_ID, ACCOUNTED_ID, PAID_AT]);
    expect(kept.values("Paid ID")[first]).toBe("PAY-0");
    expect(String(kept.values("Sync status")[first])).toMatch(/^Unsynced: paid, Accounted ID ACC-0, Paid ID PAY-0/);
  }
  // Someone else marks it paid with exactly these values: the server now holds what the formulas give (set in the
  // sandbox's store: a PATCH after the long calculations above could meet a kept-alive socket the server closed).
  Object.assign(f.sandbox.store.expense(f.sub, id0)!, { state: "paid", accounted_id: "ACC-0", paid_id: "PAY-0", paid_at: `${iso(0).slice(0, 19)}.000Z` });
  await refreshTable(f.client, f.workbook, tableName, { now: REFRESH_NOW });
  const after = tableView(f.excel, tableName);
  expect((after.values("Expense ID") as string[])[first]).toBe(id0);
  expect(formulasAt(after)).toEqual([undefined, undefined, undefined]);
  expect([after.values("Paid ID")[first], after.values("Accounted ID")[first]]).toEqual(["PAY-0", "ACC-0"]);
}, 120_000);
