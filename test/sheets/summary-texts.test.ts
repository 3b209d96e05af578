/**
 * The reconciliation summary as the user reads it, in full: every line of the Summary sheet as the grid shows
 * it (type, reconciliation, currency, count, amount in its currency's decimals, with its sign), and the
 * taskpane's sentence word for word. The movements are the service's, set in the sandbox, loaded through the
 * real adapter into the in-memory Excel.
 */
import { loadTable, refreshTable, writeReconciliationSummary } from "../../src/sheets";
import type { MovementRec } from "../../src/sandbox/model";
import { summarySentence } from "../../src/taskpane/summary-sentence";
import { display } from "../../src/workbench/display";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const AMOUNT = "Amount (charges +, deposits −)";
type Mv = [type: MovementRec["type"], amount: number, currency: string, flags?: "deposit" | "reconciled"];

/** A card's first period holding exactly `movements`; its table loaded and its summary written. */
async function summaryOf(movements: Mv[], extra: { reconciliation?: boolean } = {}) {
  const store = f.sandbox.store;
  const card = store.cardsOf(f.enterprise.id).find((c) => store.billingPeriodsOf(c.id).length > 0)!;
  const period = store.billingPeriodsOf(card.id)[0];
  const list = store.movementsOf(period.id);
  const reconciledWith = store.cardsOf(f.enterprise.id).flatMap((c) => store.billingPeriodsOf(c.id))
    .flatMap((p) => store.movementsOf(p.id)).find((m) => m.reconciliation)!.reconciliation!;
  const template = list[0];
  const made = movements.map(([type, amount, currency, flag], i): MovementRec => ({
    ...template, id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`, type, amount: { amount, currency },
    is_deposit: flag === "deposit", foreign_amount: null,
    reconciliation: flag === "reconciled" ? { id: `10000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`, expense_id: reconciledWith.expense_id } : null,
  }));
  list.splice(0, list.length, ...made);
  const params = { resource: "movements" as const, enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: period.id, ...extra };
  const report = await loadTable(f.client, f.workbook, params);
  const summary = (await writeReconciliationSummary(f.workbook, report.tableName))!;
  return { card, period, list, report, summary, ...view(summary.tableName) };
}

/** The summary table as the grid shows it, one "Type | Reconciliation | Currency | Movements | Amount" line per row. */
function view(summaryTable: string) {
  const t = tableView(f.excel, summaryTable);
  expect(t.header).toEqual(["Type", "Reconciliation", "Currency", "Movements", AMOUNT]);
  const lines = t.rows.map((r, i) => [r[0], r[1], r[2], display(r[3] as number, t.format("Movements", i)!), display(r[4] as number, t.format(AMOUNT, i)!)].join(" | "));
  return { lines, values: t.rows, sheet: t.sheet.name };
}

describe("the summary a user reads", () => {
  it("three currencies, deposits, a refund and a negative fee: every line and the sentence, each amount in its currency's decimals", async () => {
    const { card, period, summary, lines, values, sheet } = await summaryOf([
      ["expense", 12345, "CLP", "reconciled"], ["expense", 1000, "CLP"], ["expense", -2500, "CLP"], ["payment", 50000, "CLP", "deposit"],
      ["associated_fee", 990, "CLP"], ["expense", 10.5, "USD", "reconciled"], ["other_fee", -0.75, "USD"], ["payment", 20, "USD", "deposit"],
      ["expense", 1.234, "KWD", "reconciled"], ["expense", 0.006, "KWD"],
    ]);
    const name = `Summary ${card.id.slice(0, 8)} ${period.id.slice(0, 8)}`;
    expect([summary.sheetName, sheet]).toEqual([name, name]);
    expect(lines).toEqual([
      "Payment to the card | Not reconciled | CLP | 1 | -50,000",
      "Payment to the card | Not reconciled | USD | 1 | -20.00",
      "Expense | Reconciled | CLP | 1 | 12,345",
      "Expense | Reconciled | KWD | 1 | 1.234",
      "Expense | Reconciled | USD | 1 | 10.50",
      "Expense | Not reconciled | CLP | 2 | -1,500",
      "Expense | Not reconciled | KWD | 1 | 0.006",
      "Associated fee | Not reconciled | CLP | 1 | 990",
      "Other fee | Not reconciled | USD | 1 | -0.75",
      "All types | Reconciled | CLP | 1 | 12,345",
      "All types | Not reconciled | CLP | 4 | -50,510",
      "All types | All | CLP | 5 | -38,165",
      "All types | Reconciled | KWD | 1 | 1.234",
      "All types | Not reconciled | KWD | 1 | 0.006",
      "All types | All | KWD | 2 | 1.240",
      "All types | Reconciled | USD | 1 | 10.50",
      "All types | Not reconciled | USD | 2 | -20.75",
      "All types | All | USD | 3 | -10.25",
    ]);
    // The cells hold the exact figures (what a SUM over the column adds), not the shown text.
    expect(values.map((r) => r[4])).toEqual([-50000, -20, 12345, 1.234, 10.5, -1500, 0.006, 990, -0.75, 12345, -50510, -38165, 1.234, 0.006, 1.24, 10.5, -20.75, -10.25]);
    expect(summarySentence(summary)).toBe(`Reconciliation summary on the sheet "${name}": ` +
      "1 reconciled (CLP 12,345), 4 not reconciled (CLP -50,510), 1 reconciled (KWD 1.234), 1 not reconciled (KWD 0.006), " +
      "1 reconciled (USD 10.50), 2 not reconciled (USD -20.75).");
  });

  it("rounding: floating-point noise removed, a figure finer than its currency shown in full, a total back in the currency's decimals, zero never signed", async () => {
    const { summary, lines, values, sheet } = await summaryOf([
      ["expense", 0.1, "USD"], ["expense", 0.2, "USD"], ["expense", 0.005, "USD"], ["expense", 10.005, "USD", "reconciled"],
      ["expense", 100.5, "CLP", "reconciled"], ["expense", 5000, "CLP"], ["payment", 5000, "CLP", "deposit"],
      ["expense", -0.1, "COP"], ["expense", -0.2, "COP"], ["other_fee", 0.3, "COP"],
    ]);
    expect(lines).toEqual([
      "Payment to the card | Not reconciled | CLP | 1 | -5,000",
      "Expense | Reconciled | CLP | 1 | 100.5",
      "Expense | Reconciled | USD | 1 | 10.005",
      "Expense | Not reconciled | CLP | 1 | 5,000",
      "Expense | Not reconciled | COP | 2 | -0.30",
      "Expense | Not reconciled | USD | 3 | 0.305",
      "Other fee | Not reconciled | COP | 1 | 0.30",
      "All types | Reconciled | CLP | 1 | 100.5",
      "All types | Not reconciled | CLP | 2 | 0",
      "All types | All | CLP | 3 | 100.5",
      "All types | Not reconciled | COP | 3 | 0.00",
      "All types | All | COP | 3 | 0.00",
      "All types | Reconciled | USD | 1 | 10.005",
      "All types | Not reconciled | USD | 3 | 0.305",
      "All types | All | USD | 4 | 10.31",
    ]);
    expect(values.map((r) => r[4])).toEqual([-5000, 100.5, 10.005, 5000, -0.3, 0.305, 0.3, 100.5, 0, 100.5, 0, 0, 10.005, 0.305, 10.31]);
    expect(values.filter((r) => Object.is(r[4], -0))).toEqual([]);
    expect(summarySentence(summary)).toBe(`Reconciliation summary on the sheet "${sheet}": ` +
      "1 reconciled (CLP 100.5), 2 not reconciled (CLP 0), 3 not reconciled (COP 0.00), 1 reconciled (USD 10.005), 3 not reconciled (USD 0.305).");
  });

  it("nothing reconciled, loaded without the reconciliation: lines say \"Not shown\", and so does the sentence", async () => {
    const { summary, lines, sheet } = await summaryOf([["expense", 2000, "CLP"], ["payment", 700, "CLP", "deposit"], ["associated_fee", 35, "CLP"]], { reconciliation: false });
    expect(lines).toEqual([
      "Payment to the card | Not shown | CLP | 1 | -700",
      "Expense | Not shown | CLP | 1 | 2,000",
      "Associated fee | Not shown | CLP | 1 | 35",
      "All types | Not shown | CLP | 3 | 1,335",
      "All types | All | CLP | 3 | 1,335",
    ]);
    expect(summarySentence(summary)).toBe(`Reconciliation summary on the sheet "${sheet}": 3 not shown (CLP 1,335).`);
  });

  it("only movements not reconciled: no reconciled line anywhere, and the sentence names only those", async () => {
    const { summary, lines, sheet } = await summaryOf([["expense", 1500, "CLP"], ["other_fee", 250, "CLP"]]);
    expect(lines).toEqual([
      "Expense | Not reconciled | CLP | 1 | 1,500",
      "Other fee | Not reconciled | CLP | 1 | 250",
      "All types | Not reconciled | CLP | 2 | 1,750",
      "All types | All | CLP | 2 | 1,750",
    ]);
    expect(summarySentence(summary)).toBe(`Reconciliation summary on the sheet "${sheet}": 2 not reconciled (CLP 1,750).`);
  });

  it("after a refresh in which the service dropped two movements: they are left out of every line, and the sentence says so", async () => {
    const { list, report } = await summaryOf([
      ["expense", 4000, "CLP", "reconciled"], ["expense", 300, "CLP"], ["payment", 1000, "CLP", "deposit"], ["other_fee", 45, "CLP"],
    ]);
    const [dropped] = list.splice(3, 1); // the fee: one row left out
    await refreshTable(f.client, f.workbook, report.tableName);
    const one = (await writeReconciliationSummary(f.workbook, report.tableName))!;
    expect(view(one.tableName).lines.slice(-3)).toEqual([
      "All types | Reconciled | CLP | 1 | 4,000", "All types | Not reconciled | CLP | 2 | -700", "All types | All | CLP | 3 | 3,300",
    ]);
    expect(summarySentence(one)).toBe(`Reconciliation summary on the sheet "${one.sheetName}": ` +
      "1 reconciled (CLP 4,000), 2 not reconciled (CLP -700). 1 row no longer returned by the query is left out.");
    list.push(dropped);
    list.splice(1, 2); // the unreconciled expense and the deposit
    await refreshTable(f.client, f.workbook, report.tableName);
    const again = (await writeReconciliationSummary(f.workbook, report.tableName))!;
    const { lines, sheet } = view(again.tableName);
    expect(lines).toEqual([
      "Expense | Reconciled | CLP | 1 | 4,000",
      "Other fee | Not reconciled | CLP | 1 | 45",
      "All types | Reconciled | CLP | 1 | 4,000",
      "All types | Not reconciled | CLP | 1 | 45",
      "All types | All | CLP | 2 | 4,045",
    ]);
    expect(summarySentence(again)).toBe(`Reconciliation summary on the sheet "${sheet}": 1 reconciled (CLP 4,000), 1 not reconciled (CLP 45). ` +
      "2 rows no longer returned by the query are left out.");
  });

  it("an empty period: one total line of nothing, and the sentence says there are no movements", async () => {
    const { summary, lines, sheet } = await summaryOf([]);
    expect(lines).toEqual(["All types | All |  | 0 | 0"]);
    expect(summarySentence(summary)).toBe(`Reconciliation summary on the sheet "${sheet}": no movements.`);
  });
});
