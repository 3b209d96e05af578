/**
 * State, Accounted ID and Paid ID are General (issue 47), so Excel converts what a person types there: 00123 is
 * 123, 1,250.00 is 1250, 1e5 is 100000, a date is a serial, TRUE a boolean; a lookup of an empty cell is 0. Such a
 * value is never sent (its text would silently differ from what was typed): Preview makes the row invalid with
 * what Excel made of it and what to do, and Sync sends nothing for it. A text id ('00123) is sent as typed.
 * Against the real sandbox through Microsoft's Office.js client and the in-memory Excel.
 */
import { previewInSheet, runSync } from "../../src/sync";
import { tableView, type ExcelFixture } from "../support/excel";
import { withApprovedLoaded } from "../support/sync";

let f: ExcelFixture;
let tableName: string;

beforeEach(async () => ({ f, tableName } = await withApprovedLoaded()));
afterEach(() => f.sandbox.close());

/** The person types into body row `row`, by header. */
function typeIn(row: number, cells: Record<string, string>): void {
  const t = tableView(f.excel, tableName);
  for (const [header, input] of Object.entries(cells)) f.excel.user.type(t.sheet.name, t.address(header, row), input);
}

/** The PATCHes the sandbox took for these records: its store keeps one transition per PATCH applied. */
const patchesAt = (ids: readonly string[]) => ids.reduce((n, id) => n + f.sandbox.store.transitionsOf(id).length, 0);

const TYPE_AS_TEXT = "type the id with an apostrophe in front, as '00123 keeps 00123 whole; ids are sent as text. Not sent.";

it("typed 00123, 1,250.00, 1e5, TRUE and a date in the id columns, and a number as State, are never sent; '00123 is sent as \"00123\"", async () => {
  const ids = (tableView(f.excel, tableName).values("Expense ID") as string[]).slice(0, 7);
  typeIn(0, { State: "accounted", "Accounted ID": "00123" });
  typeIn(1, { State: "paid", "Paid ID": "1,250.00", "Paid at (UTC)": "2026-11-24 10:00" });
  typeIn(2, { State: "accounted", "Accounted ID": "1e5" });
  typeIn(3, { State: "accounted", "Accounted ID": "TRUE" });
  typeIn(4, { State: "paid", "Paid ID": "2026-11-24 10:00", "Paid at (UTC)": "2026-11-24 10:00" });
  // A paste skips State's dropdown ("a plain paste does not trigger validation"): 1 lands as the number 1.
  f.excel.user.paste(tableView(f.excel, tableName).sheet.name, tableView(f.excel, tableName).address("State", 5), "1");
  typeIn(5, { "Accounted ID": "ACC-5" });
  typeIn(6, { State: "paid", "Paid ID": "'00123", "Paid at (UTC)": "2026-11-24 10:00" });
  const t = tableView(f.excel, tableName);
  expect([t.values("Accounted ID")[0], t.values("Paid ID")[1], t.values("Accounted ID")[2], t.values("Accounted ID")[3], t.values("State")[5], t.values("Paid ID")[6]])
    .toEqual([123, 1250, 100000, true, 1, "00123"]);

  const preview = await previewInSheet(f.workbook, tableName);
  const row = (i: number) => preview.rows.find((r) => r.id === ids[i])!;
  expect(preview.counts).toMatchObject({ change: 1, check: 0, invalid: 6 });
  expect([0, 1, 2, 3, 4, 5].map((i) => [row(i).kind, row(i).message, row(i).patch])).toEqual([
    ["invalid", `Accounted ID is the number 123 in Excel, not text: ${TYPE_AS_TEXT}`, undefined],
    ["invalid", `Paid ID is the number 1250 in Excel, not text: ${TYPE_AS_TEXT}`, undefined],
    ["invalid", `Accounted ID is the number 100000 in Excel, not text: ${TYPE_AS_TEXT}`, undefined],
    ["invalid", `Accounted ID is the boolean TRUE in Excel, not text: ${TYPE_AS_TEXT}`, undefined],
    ["invalid", `Paid ID is the date 2026-11-24 10:00 in Excel, not text (a date-time goes in Paid at): ${TYPE_AS_TEXT}`, undefined],
    ["invalid", "State is the number 1 in Excel, not text: choose accounted or paid. Not sent.", undefined],
  ]);
  // Paid at typed as a date is a serial read by its date-time format: sent as that UTC instant.
  expect(row(6)).toMatchObject({ kind: "change", patch: { state: "paid", paid_id: "00123", paid_at: "2026-11-24T10:00:00Z" } });
  expect(String(tableView(f.excel, tableName).values("Sync status")[0])).toContain("Accounted ID is the number 123 in Excel, not text");

  const report = await runSync(f.client, f.workbook, preview, { sendChecked: true });
  expect(report.counts.applied).toBe(1);
  expect(patchesAt(ids.slice(0, 6))).toBe(0);
  expect(patchesAt([ids[6]])).toBe(1);
  expect(f.sandbox.store.expense(f.sub, ids[6])).toMatchObject({ state: "paid", paid_id: "00123" });
  for (const id of ids.slice(0, 6)) expect(f.sandbox.store.expense(f.sub, id)!.state).toBe("approved");
}, 120_000);

it("a lookup giving a number, or 0 from an empty cell, is named with its cell and never sent; wrapped in TEXT it is sent", async () => {
  const t = tableView(f.excel, tableName);
  const numbers = (t.values("Expense #") as number[]).slice(0, 3);
  const ids = (t.values("Expense ID") as string[]).slice(0, 3);
  // The ERP's export: document numbers as numbers, and one line whose document is still blank.
  await f.excel.run(async (context) => {
    context.workbook.worksheets.add("ERP").getRangeByIndexes(0, 0, 4, 2).values = [["Number", "Document"], [numbers[0], 40017], [numbers[1], ""], [numbers[2], 40019]];
    await context.sync();
  });
  const lookup = "VLOOKUP([@[Expense #]],ERP!$A$2:$B$4,2,FALSE)";
  // Row 1 has every tracked cell filled (no empty one): its formula is found for the number alone.
  typeIn(0, { State: "paid", "Accounted ID": `=${lookup}`, "Paid ID": "PAY-0", "Paid at (UTC)": "2026-11-24 10:00" });
  typeIn(1, { State: "accounted", "Accounted ID": `=${lookup}` });
  typeIn(2, { State: "accounted", "Accounted ID": `=TEXT(${lookup},"0")` });
  expect(tableView(f.excel, tableName).values("Accounted ID").slice(0, 3)).toEqual([40017, 0, "40019"]);

  const preview = await previewInSheet(f.workbook, tableName);
  const row = (i: number) => preview.rows.find((r) => r.id === ids[i])!;
  expect(row(0)).toMatchObject({ kind: "invalid" });
  expect(row(0).message).toBe(`Accounted ID is the number 40017, from the formula in ${t.address("Accounted ID", 0)}, not text: ` +
    'if the id is its digits, wrap the formula in TEXT(…,"0"); ids are sent as text. Not sent.');
  expect(row(1)).toMatchObject({ kind: "invalid" });
  expect(row(1).message).toBe(`Accounted ID is 0, from the formula in ${t.address("Accounted ID", 1)} (a lookup of an empty cell?): ` +
    "an id of 0 is never sent. Fill in what it looks up, or clear the cell. Not sent.");
  expect(row(2)).toMatchObject({ kind: "change", patch: { state: "accounted", accounted_id: "40019" } });

  await runSync(f.client, f.workbook, preview, { sendChecked: true });
  expect([patchesAt([ids[0], ids[1]]), patchesAt([ids[2]])]).toEqual([0, 1]);
  expect(f.sandbox.store.expense(f.sub, ids[2])).toMatchObject({ state: "accounted", accounted_id: "40019" });
}, 120_000);
