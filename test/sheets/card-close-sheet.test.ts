/**
 * The Card close of a period, written from the real sandbox (--card-close) into the in-memory Excel: the
 * period tied out to a typed statement total in the card currency's decimals, one row per movement the service
 * has not reconciled with its proposal or why none, the chase list and the expenses that never posted, names
 * and never ids; and closing again (the refresh) keeps what the person typed beside the rows.
 */
import { MOVEMENT_TYPE_NAMES } from "../../src/sheets/resources/movements";
import { writeCardClose } from "../../src/sheets";
import { closePlace, type CardCloseRequest } from "../../src/sheets/card-close/sheet";
import type { MovementRec } from "../../src/sandbox/model";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
let request: CardCloseRequest;
let movements: MovementRec[];
let place: ReturnType<typeof closePlace>;
let holder: string;

beforeAll(async () => {
  f = await withExcel({ cardClose: { movements: 60 } });
  const data = f.sandbox.store.data;
  const closeMovement = data.movements.find((m) => m.id === data.card_close_truth!.links[0].movement_id)!;
  const card = data.cards.find((c) => c.id === closeMovement.card_id)!;
  movements = data.movements.filter((m) => m.billing_period_id === closeMovement.billing_period_id);
  const person = data.people.find((p) => p.id === card.user_id)!;
  holder = `${person.first_name} ${person.last_name}`;
  request = { cardId: card.id, billingPeriodId: closeMovement.billing_period_id, subsidiaryIds: f.enterprise.subsidiaries.slice(0, 2) };
  const end = data.billing_periods.find((p) => p.id === closeMovement.billing_period_id)!.end_date;
  place = closePlace(card.last_four_digits, end);
});
afterAll(() => f.sandbox.close());

const periodTotal = () => movements.reduce((sum, m) => sum + (m.is_deposit ? -m.amount.amount : m.amount.amount), 0);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe("a card close", () => {
  it("ties the period out to the typed statement total, in the card currency's decimals", async () => {
    const report = await writeCardClose(f.client, f.workbook, { ...request, statementTotal: periodTotal() });
    expect(report.sheets).toEqual([place.tieOut.sheetName, place.movements.sheetName, place.chase.sheetName, place.uncharged.sheetName]);
    expect(report.ties).toEqual([{ currency: "CLP", total: periodTotal(), statement: periodTotal(), difference: 0 }]);
    const tie = tableView(f.excel, place.tieOut.tableName);
    const line = (name: string) => tie.rows.find((r) => r[tie.column("Line")] === name)!;
    expect(line("Period total")[tie.column("Movements")]).toBe(movements.length);
    expect(line("Difference (period − statement)")[tie.column("Note")]).toBe("Ties out");
    const byType = tie.rows.filter((r) => r[0] === "By type");
    // Finance words, not the service's type values (issue 43).
    expect(byType.map((r) => r[tie.column("Line")]).filter((l) => !(Object.values(MOVEMENT_TYPE_NAMES) as string[]).includes(String(l)))).toEqual([]);
    expect(byType.reduce((n, r) => n + Number(r[tie.column("Movements")]), 0)).toBe(movements.length);
    expect(line("Reconciled by the service")[tie.column("Movements")]).toBe(movements.filter((m) => m.reconciliation).length);
    expect(tie.format("Amount (charges +, deposits −)", tie.rows.indexOf(line("Period total")))).toBe("#,##0");
    // Off by a peso: the difference says so, to the peso.
    const off = await writeCardClose(f.client, f.workbook, { ...request, statementTotal: periodTotal() - 1 });
    expect(off.ties[0].difference).toBe(1);
    expect(line("Difference (period − statement)")).toBeDefined();
    const again = tableView(f.excel, place.tieOut.tableName);
    expect(again.rows.find((r) => r[again.column("Line")] === "Difference (period − statement)")![again.column("Note")]).toMatch(/^Does not tie out/);
  });

  it("lists each movement the service has not reconciled with a proposal, confidence and reasons, or why none, by name", async () => {
    await writeCardClose(f.client, f.workbook, request);
    const rows = tableView(f.excel, place.movements.tableName);
    expect(rows.rows).toHaveLength(movements.filter((m) => !m.reconciliation).length);
    const matched = rows.rows.filter((r) => r[rows.column("Outcome")] === "Matched here");
    expect(matched.length).toBeGreaterThan(10);
    for (const r of matched) {
      expect(r[rows.column("Proposed expense")]).toMatch(/^Expense \d+ · /);
      expect(["High", "Medium", "Low"]).toContain(r[rows.column("Confidence")]);
      expect(String(r[rows.column("Reasons")]).length).toBeGreaterThan(5);
    }
    for (const r of rows.rows.filter((x) => x[rows.column("Outcome")] === "No expense: chase")) expect(r[rows.column("Reasons")]).toMatch(/\w/);
    const chase = tableView(f.excel, place.chase.tableName);
    expect(chase.rows.length).toBeGreaterThan(0);
    expect(new Set(chase.values("Cardholder"))).toEqual(new Set([holder]));
    const noCharge = tableView(f.excel, place.uncharged.tableName);
    expect(noCharge.rows.length).toBeGreaterThan(0);
    for (const table of [rows, chase, noCharge, tableView(f.excel, place.tieOut.tableName)]) {
      expect(table.rows.flat().filter((v) => UUID.test(String(v)))).toEqual([]);
    }
  });

  it("closing again keeps the person's Accepted and Notes beside their rows, even a row the service has since reconciled", async () => {
    await writeCardClose(f.client, f.workbook, { ...request, statementTotal: 12345 });
    const before = tableView(f.excel, place.movements.tableName);
    const noted = [0, 3, 5].map((row) => String(before.rows[row][before.column("Reference")]));
    await f.workbook.writeCells(place.movements.tableName, [0, 3, 5].flatMap((row, i) => [
      { row, column: before.column("Notes"), value: `asked ${i}` }, { row, column: before.column("Accepted"), value: "Yes" },
    ]));
    const chase = tableView(f.excel, place.chase.tableName);
    await f.workbook.writeCells(place.chase.tableName, [{ row: 0, column: chase.column("Notes"), value: "emailed Tuesday" }]);
    const chased = chase.rows[0][chase.column("Reference")];
    // The service reconciles the movement of the second note meanwhile.
    const gone = movements.find((m) => m.reference_code === noted[1])!;
    const expense = f.sandbox.store.data.expenses.find((e) => e.user_id !== "")!;
    gone.reconciliation = { id: "00000000-0000-4000-8000-000000000001", expense_id: expense.id };
    const report = await writeCardClose(f.client, f.workbook, request);
    expect(report.keptRows).toBe(3);
    expect(report.carriedRows).toBe(1);
    expect(report.ties[0].statement).toBe(12345); // typed before, kept
    const after = tableView(f.excel, place.movements.tableName);
    const rowOf = (ref: string) => after.rows.filter((r) => r[after.column("Reference")] === ref);
    expect(rowOf(noted[0])[0][after.column("Notes")]).toBe("asked 0");
    expect(rowOf(noted[2])[0][after.column("Notes")]).toBe("asked 2");
    expect(rowOf(noted[2])[0][after.column("Accepted")]).toBe("Yes");
    const carried = rowOf(noted[1]);
    expect(carried).toHaveLength(1);
    expect(carried[0][after.column("Notes")]).toBe("asked 1");
    expect(carried[0][after.column("Outcome")]).toMatch(/^No longer open/);
    expect(after.rows.at(-1)![after.column("Reference")]).toBe(noted[1]);
    const chaseAfter = tableView(f.excel, place.chase.tableName);
    expect(chaseAfter.rows.find((r) => r[chaseAfter.column("Reference")] === chased)![chaseAfter.column("Notes")]).toBe("emailed Tuesday");
    gone.reconciliation = null;
  });
});
