/**
 * The reconciliation summary of a movements table: the pure computation (lines, totals, the sign
 * convention), then the summary table a load and a refresh keep beside the movements, in the fake Excel
 * against the sandbox.
 */
import { loadTable, refreshTable, summarizeMovements, movementsOfCells, writeReconciliationSummary, summaryPlace, type SummaryMovement } from "../../src/sheets";
import { summarySentence } from "../../src/taskpane/summary-sentence";
import { display } from "../../src/workbench/display";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

const m = (type: string, reconciled: boolean | null, amount: number | null, extra: Partial<SummaryMovement> = {}): SummaryMovement =>
  ({ type, reconciled, amount, currency: "CLP", deposit: false, ...extra });

describe("summarizeMovements", () => {
  it("counts and sums by type and reconciled, then totals per currency: reconciled, not reconciled, all", () => {
    const lines = summarizeMovements([
      m("expense", true, 100), m("expense", true, 50.5), m("expense", false, 20),
      m("payment", false, 500, { deposit: true }), m("associated_fee", false, 3),
    ]);
    expect(lines.map((l) => [l.type, l.reconciled, l.currency, l.count, l.amount])).toEqual([
      ["payment", "Not reconciled", "CLP", 1, -500],
      ["expense", "Reconciled", "CLP", 2, 150.5],
      ["expense", "Not reconciled", "CLP", 1, 20],
      ["associated_fee", "Not reconciled", "CLP", 1, 3],
      ["All types", "Reconciled", "CLP", 2, 150.5],
      ["All types", "Not reconciled", "CLP", 3, -477],
      ["All types", "All", "CLP", 5, -326.5],
    ]);
  });

  it("a deposit counts negative whatever sign its Amount cell shows; a charge keeps its own sign (a refund stays negative)", () => {
    const lines = summarizeMovements([m("payment", false, 300, { deposit: true }), m("payment", false, -200, { deposit: true }), m("expense", false, -40)]);
    expect(lines.find((l) => l.type === "payment")!.amount).toBe(-500);
    expect(lines.find((l) => l.type === "expense")!.amount).toBe(-40);
  });

  it("keeps currencies apart, puts a type the spec does not list after the spec's, and removes floating-point noise", () => {
    const lines = summarizeMovements([m("cashback", false, 1), m("expense", false, 0.1, { currency: "USD" }), m("expense", false, 0.2, { currency: "USD" }), m("expense", false, 7)]);
    expect(lines.map((l) => `${l.type}/${l.reconciled}/${l.currency}/${l.count}/${l.amount}`)).toEqual([
      "expense/Not reconciled/CLP/1/7", "expense/Not reconciled/USD/2/0.3", "cashback/Not reconciled/CLP/1/1",
      "All types/Not reconciled/CLP/2/8", "All types/All/CLP/2/8", "All types/Not reconciled/USD/2/0.3", "All types/All/USD/2/0.3",
    ]);
  });

  it("an empty table gives one total line of nothing; an unreadable amount is counted but adds nothing", () => {
    expect(summarizeMovements([])).toEqual([{ type: "All types", reconciled: "All", currency: "", count: 0, amount: 0 }]);
    expect(summarizeMovements([m("expense", null, null)])[0]).toEqual({ type: "expense", reconciled: "Not shown", currency: "CLP", count: 1, amount: 0 });
  });
});

describe("movementsOfCells", () => {
  it("reads Yes/No cells, leaves out rows the query no longer returns and empty rows, and falls back on the query's reconciled filter", () => {
    const read = movementsOfCells({
      rowCount: 4, type: ["expense", "payment", "", "expense"], amount: [10, 99, "", "n/a"], currency: ["CLP", "CLP", "", "CLP"],
      deposit: ["No", "Yes", "", "No"], leftOut: (row) => row === 1, reconciledByQuery: false,
    });
    expect(read.leftOut).toBe(1);
    expect(read.movements).toEqual([
      { type: "expense", reconciled: false, currency: "CLP", amount: 10, deposit: false },
      { type: "expense", reconciled: false, currency: "CLP", amount: null, deposit: false },
    ]);
  });
});

describe("the summary table beside a loaded movements table", () => {
  let f: ExcelFixture;
  beforeAll(async () => {
    f = await withExcel();
  });
  afterAll(() => f?.sandbox.close());

  it("is written on its own sheet after a load, agrees with the sandbox, and follows a refresh", async () => {
    const card = f.enterprise.cards.find((c) => c.billing_periods.length > 0)!;
    const periodId = card.billing_periods[0];
    const params = { resource: "movements" as const, enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: periodId };
    const report = await loadTable(f.client, f.workbook, params);
    const summary = (await writeReconciliationSummary(f.workbook, report.tableName))!;
    expect(summary.tableName).toBe(`${report.tableName}_Summary`);
    expect(summary.sheetName).toMatch(/^Summary [0-9a-f]{8} [0-9a-f]{8}$/);
    expect(summary.sheetName).toBe(summaryPlace(params, report.tableName).sheetName);

    const t = tableView(f.excel, summary.tableName);
    expect(t.sheet.name).toBe(summary.sheetName);
    expect(t.header).toEqual(["Type", "Reconciliation", "Currency", "Movements", "Amount (charges +, deposits −)"]);
    const movements = f.sandbox.store.movementsOf(periodId);
    const all = t.rows.find((r) => r[0] === "All types" && r[1] === "All")!;
    expect(all[3]).toBe(movements.length);
    const expected = movements.reduce((sum, x) => sum + (x.is_deposit ? -x.amount.amount : x.amount.amount), 0);
    expect(all[4]).toBeCloseTo(expected, 6);
    const reconciled = t.rows.find((r) => r[0] === "All types" && r[1] === "Reconciled");
    expect(reconciled?.[3] ?? 0).toBe(movements.filter((x) => x.reconciliation).length);
    // The first card is in CLP: no decimals on any line (they were ".00" when the column had one fixed format).
    expect(t.rows.map((r) => r[2])).toEqual(t.rows.map(() => "CLP"));
    expect(t.rows.map((_, i) => t.format("Amount (charges +, deposits −)", i))).toEqual(t.rows.map(() => "#,##0"));

    // A movements table of the unreconciled only: its own summary, on its own sheet, with no reconciled line.
    const open = await loadTable(f.client, f.workbook, { ...params, reconciled: false });
    const openSummary = (await writeReconciliationSummary(f.workbook, open.tableName))!;
    expect(openSummary.sheetName).not.toBe(summary.sheetName);
    expect(openSummary.sheetName.length).toBeLessThanOrEqual(31);
    const u = tableView(f.excel, openSummary.tableName);
    expect(u.rows.filter((r) => r[1] === "Reconciled")).toEqual([]);
    expect(u.rows.find((r) => r[0] === "All types" && r[1] === "All")![3]).toBe(movements.filter((x) => !x.reconciliation).length);

    // Refreshed after the service dropped a movement from the period (the list's own array, spliced: the
    // sandbox has no delete): the summary follows, and leaves out the row the refresh marks as gone.
    const before = movements.length;
    const at = movements.findIndex((x) => !x.is_deposit);
    const [gone] = movements.splice(at, 1);
    const refreshed = await refreshTable(f.client, f.workbook, report.tableName);
    expect(refreshed.removed).toBe(1);
    const again = (await writeReconciliationSummary(f.workbook, refreshed.tableName))!;
    expect(again.leftOut).toBe(1);
    const after = tableView(f.excel, again.tableName).rows.find((r) => r[0] === "All types" && r[1] === "All")!;
    expect(after[3]).toBe(before - 1);
    expect(after[4]).toBeCloseTo(expected - gone.amount.amount, 6);
    movements.splice(at, 0, gone);
  });

  /** The summary of a card's first period as the grid shows it: currency, amount text and format per line. */
  async function summaryOf(cardId: string) {
    const periodId = f.sandbox.store.billingPeriodsOf(cardId)[0].id;
    const report = await loadTable(f.client, f.workbook, { resource: "movements", enterpriseId: f.enterprise.id, cardId, billingPeriodId: periodId });
    const summary = (await writeReconciliationSummary(f.workbook, report.tableName))!;
    const t = tableView(f.excel, summary.tableName);
    const amount = "Amount (charges +, deposits −)";
    return {
      periodId, summary, rows: t.rows,
      lines: t.rows.map((r, i) => ({ line: `${r[0]}/${r[1]}/${r[2]}`, format: t.format(amount, i), text: display(r[4] as number, t.format(amount, i) ?? "") })),
    };
  }
  const cardIn = (currency: string) => f.sandbox.store.cardsOf(f.enterprise.id).find((c) => c.national_balance_currency === currency)!;

  it("over a KWD card, every line shows three decimals, and the taskpane's sentence too", async () => {
    const card = cardIn("KWD");
    const { periodId, summary, lines } = await summaryOf(card.id);
    const movements = f.sandbox.store.movementsOf(periodId);
    expect(movements.every((m) => m.amount.currency === "KWD")).toBe(true);
    expect(movements.some((m) => Math.round(m.amount.amount * 1000) % 10 !== 0)).toBe(true); // fils a two-decimal format would round away
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.filter((l) => l.format !== "#,##0.000" || !/\.\d{3}$/.test(l.text))).toEqual([]);
    const total = summary.lines.find((l) => l.type === "All types" && l.reconciled === "All")!;
    const net = movements.reduce((sum, m) => sum + (m.is_deposit ? -m.amount.amount : m.amount.amount), 0);
    expect(total.amount).toBeCloseTo(net, 6);
    const reconciled = summary.lines.find((l) => l.type === "All types" && l.reconciled === "Reconciled")!;
    expect(summarySentence(summary)).toContain(`${reconciled.count} reconciled (KWD ${reconciled.amount.toLocaleString("en-US", { minimumFractionDigits: 3, maximumFractionDigits: 3 })})`);
    expect(summarySentence(summary)).toMatch(/\(KWD -?[\d,]+\.\d{3}\)/);
  });

  it("a period with movements in two currencies: lines and totals per currency, each in its own decimals, a finer total widened", async () => {
    const card = cardIn("COP");
    const periodId = f.sandbox.store.billingPeriodsOf(card.id)[0].id;
    const movements = f.sandbox.store.movementsOf(periodId);
    const charges = movements.filter((m) => !m.is_deposit);
    // Two charges settled in another currency: one in CLP, one of 10.005 USD (a figure finer than USD has).
    charges[0].amount = { amount: 15000, currency: "CLP" };
    charges[1].amount = { amount: 10.005, currency: "USD" };
    const { lines } = await summaryOf(card.id);
    const totals = lines.filter((l) => l.line.startsWith("All types/"));
    expect(totals.map((l) => l.line)).toEqual(expect.arrayContaining(["All types/All/CLP", "All types/All/COP", "All types/All/USD"]));
    const formatOf = (currency: string) => new Set(lines.filter((l) => l.line.endsWith(`/${currency}`)).map((l) => l.format));
    expect([formatOf("CLP"), formatOf("COP"), formatOf("USD")]).toEqual([new Set(["#,##0"]), new Set(["#,##0.00"]), new Set(["#,##0.000"])]);
    expect(totals.find((l) => l.line === "All types/All/CLP")!.text).toBe("15,000");
    expect(totals.find((l) => l.line === "All types/All/USD")!.text).toBe("10.005");
  });

  it("writes nothing for a table that does not hold movements", async () => {
    const report = await loadTable(f.client, f.workbook, { resource: "cards", enterpriseId: f.enterprise.id });
    expect(await writeReconciliationSummary(f.workbook, report.tableName)).toBeNull();
    expect(f.excel.model.table(`${report.tableName}_Summary`)).toBeFalsy();
  });
});
