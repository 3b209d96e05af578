/**
 * Money as a finance user reads it: charges positive and deposits negative on a card statement; every amount
 * in its currency's ISO 4217 decimals (the allowances' converted amount too, beside the currency it is in);
 * an amount with more decimals than its currency, or in a code ISO does not list, shown in full and named.
 */
import { amountNotesText, currencyFormat, loadTable, refreshTable, type LoadParams } from "../../src/sheets";
import { display } from "../../src/workbench/display";
import { autofitWidth } from "../../src/workbench/fake-excel/protocol/range-format";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("a movements table shows charges positive and deposits (payments to the card) negative, whatever sign the service sends", async () => {
  const card = f.sandbox.store.cardsOf(f.enterprise.id)[0];
  const period = f.sandbox.store.billingPeriodsOf(card.id)[0];
  const movements = f.sandbox.store.movementsOf(period.id);
  const deposit = movements.find((m) => m.is_deposit)!;
  const charge = movements.find((m) => !m.is_deposit)!;
  expect(deposit).toBeDefined();
  deposit.amount.amount = Math.abs(deposit.amount.amount); // a service that sends deposits unsigned
  const report = await loadTable(f.client, f.workbook, { resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: period.id } as LoadParams);
  const t = tableView(f.excel, report.tableName);
  const amountOf = (id: string) => t.values("Amount")[t.values("Movement ID").indexOf(id)];
  expect(amountOf(deposit.id)).toBe(-Math.abs(deposit.amount.amount));
  expect(amountOf(charge.id)).toBe(charge.amount.amount);
  expect(t.values("Amount").filter((_, i) => t.values("Deposit")[i] === "Yes").every((a) => (a as number) <= 0)).toBe(true);
});

it("amounts show their currency's decimals: none for CLP, two for USD; the USD column always two", async () => {
  const expenses = f.sandbox.store.expensesOf(f.sub);
  const clp = expenses.find((e) => e.currency === "CLP")!;
  const usd = expenses.find((e) => e.currency === "USD")!;
  expect([clp, usd].every(Boolean)).toBe(true);
  const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);
  const t = tableView(f.excel, report.tableName);
  const rowOf = (id: string) => t.values("Expense ID").indexOf(id);
  expect(["Amount", "Net amount", "Tax amount", "USD amount"].map((h) => t.format(h, rowOf(clp.id)))).toEqual(["#,##0", "#,##0", "#,##0", "#,##0.00"]);
  expect(["Amount", "Net amount", "Tax amount", "USD amount"].map((h) => t.format(h, rowOf(usd.id)))).toEqual(["#,##0.00", "#,##0.00", "#,##0.00", "#,##0.00"]);
  expect(t.format("Subsidiary amount", rowOf(usd.id))).toBe(clp.subsidiary_currency === "CLP" ? "#,##0" : "#,##0.00");
  // A refresh (a different write path) keeps them.
  await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub } as LoadParams);
  const again = tableView(f.excel, report.tableName);
  expect(again.format("Amount", again.values("Expense ID").indexOf(clp.id))).toBe("#,##0");
  expect(again.format("Amount", again.values("Expense ID").indexOf(usd.id))).toBe("#,##0.00");
});

it("knows each currency's minor units, and no format for a code ISO 4217 does not list", () => {
  expect(["CLP", "JPY", "USD", "EUR", "KWD", "clp", "XYZ"].map(currencyFormat)).toEqual(["#,##0", "#,##0", "#,##0.00", "#,##0.00", "#,##0.000", "#,##0", undefined]);
});

/** A loaded table's cells as the grid shows them, by column. */
function shown(tableName: string) {
  const t = tableView(f.excel, tableName);
  return {
    t,
    row: (id: string) => t.values(t.header[0]).indexOf(id),
    text: (header: string, row: number) => display(t.values(header)[row] as never, t.format(header, row) ?? ""),
  };
}
const subsidiaryIn = (currency: string) => f.sandbox.store.subsidiariesOf(f.enterprise.id).find((s) => s.currency === currency)!;

describe("the allowances' converted amount", () => {
  it("a CLP subsidiary's converted amounts show no decimals, beside a column naming CLP, the segments' currency, even unexpanded", async () => {
    const allowances = f.sandbox.store.allowancesOf(f.sub);
    expect(subsidiaryIn("CLP").id).toBe(f.sub);
    // International allowances are in USD, converted into the subsidiary's CLP.
    const international = allowances.find((a) => a.currency === "USD")!;
    expect(international.allowance_segments.map((s) => s.converted_amount.currency)).toEqual(international.allowance_segments.map(() => "CLP"));
    const report = await loadTable(f.client, f.workbook, { resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const { t, row, text } = shown(report.tableName);
    const at = t.header.indexOf("Converted amount");
    expect(t.header.slice(at, at + 2)).toEqual(["Converted amount", "Converted currency"]);
    expect(t.header).not.toContain("Segments"); // not asked for: the segments came only to name the currency
    expect(t.values("Converted currency")).toEqual(allowances.map(() => "CLP"));
    expect(allowances.map((a) => t.format("Converted amount", row(a.id)))).toEqual(allowances.map(() => "#,##0"));
    expect(allowances.filter((a) => text("Converted amount", row(a.id)).includes("."))).toEqual([]);
    const r = row(international.id);
    expect([text("Amount", r), t.values("Currency")[r], text("Converted amount", r), t.values("Converted currency")[r]])
      .toEqual([international.amount.amount.toLocaleString("en-US", { minimumFractionDigits: 2 }), "USD", international.converted_amount.toLocaleString("en-US"), "CLP"]);
    expect(report.amounts).toEqual({ unknownCurrencies: [], finer: 0, firstFiner: null });
  });

  it("a USD subsidiary's show two; the currency is each allowance's own segments'; none without segments, named", async () => {
    const usdSub = subsidiaryIn("USD");
    const [a, b, c] = f.sandbox.store.allowancesOf(usdSub.id);
    for (const s of b.allowance_segments) s.converted_amount.currency = "JPY";
    b.converted_amount = 12345;
    c.allowance_segments = [];
    c.converted_amount = 77.5;
    const report = await loadTable(f.client, f.workbook, { resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: usdSub.id, expand: ["documents"] });
    const { t, row, text } = shown(report.tableName);
    expect([a, b, c].map((x) => [t.values("Converted currency")[row(x.id)], t.format("Converted amount", row(x.id)), text("Converted amount", row(x.id))]))
      .toEqual([["USD", "#,##0.00", a.converted_amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })], ["JPY", "#,##0", "12,345"], ["", "#,##0.0", "77.5"]]);
    expect(report.amounts.unknownCurrencies).toEqual([{ code: "", amounts: 1 }]);
    expect(amountNotesText(report.amounts)).toBe("1 amount has no currency code: shown with the decimals it has.");
  });
});

describe("COP and KWD, the demo's Colombian and Kuwaiti subsidiaries", () => {
  it("their expenses show two and three decimals (COP's cents, which a browser's Intl drops), in a load and after a refresh", async () => {
    for (const [currency, format, decimals] of [["COP", "#,##0.00", 2], ["KWD", "#,##0.000", 3]] as const) {
      const sub = subsidiaryIn(currency);
      const expenses = f.sandbox.store.expensesOf(sub.id);
      const own = expenses.filter((e) => e.currency === currency);
      expect(own.length).toBeGreaterThan(10);
      expect(own.some((e) => !Number.isInteger(e.amount))).toBe(true);
      const params: LoadParams = { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: sub.id };
      for (const report of [await loadTable(f.client, f.workbook, params), await loadTable(f.client, f.workbook, params)]) {
        const { t, row, text } = shown(report.tableName);
        for (const e of expenses) {
          const r = row(e.id);
          const expected = e.currency === currency ? format : "#,##0.00"; // the others are in USD or EUR
          expect([e.currency, t.format("Amount", r), t.format("Net amount", r), t.format("Tax amount", r), t.format("Subsidiary amount", r)])
            .toEqual([e.currency, expected, expected, expected, format]);
          expect([e.currency, text("Subsidiary amount", r)]).toEqual([e.currency, e.subsidiary_expense_amount.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })]);
        }
        expect(report.amounts.finer + report.amounts.unknownCurrencies.length).toBe(0);
        // Millions of pesos with their cents need a column wider than Excel's default, where they would show "#####":
        // each amount column is at least 95 pt, and as wide as its widest figure as shown.
        const left = f.excel.model.table(report.tableName)!.area.column;
        for (const h of ["Amount", "Net amount", "Tax amount", "USD amount", "Subsidiary amount"]) {
          const widest = Math.max(h.length, ...t.rows.map((_, r) => text(h, r).length));
          expect([h, t.sheet.columnWidths.get(left + t.column(h))]).toEqual([h, Math.max(95, autofitWidth(widest))]);
        }
      }
    }
  });
});

describe("an amount with more decimals than its currency has", () => {
  it("10.005 USD shows 10.005 (its cell widened), never 10.01, and the load names it; a refresh keeps both, until the service sends 10.01", async () => {
    const usdSub = subsidiaryIn("USD");
    const expenses = f.sandbox.store.expensesOf(usdSub.id);
    const odd = expenses.find((e) => e.currency === "USD")!;
    odd.amount = 10.005;
    const params: LoadParams = { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: usdSub.id };
    const first = await loadTable(f.client, f.workbook, params);
    const check = (tableName: string) => {
      const { t, row, text } = shown(tableName);
      const others = expenses.filter((e) => e !== odd && e.currency === "USD");
      return {
        odd: [t.format("Amount", row(odd.id)), text("Amount", row(odd.id))],
        others: new Set(others.map((e) => t.format("Amount", row(e.id)))),
      };
    };
    expect(check(first.tableName)).toEqual({ odd: ["#,##0.000", "10.005"], others: new Set(["#,##0.00"]) });
    const note = `1 amount has more decimals than its currency has: shown in full, not rounded (Amount 10.005 USD on the row of ${odd.id}; USD has 2 decimals).`;
    expect(amountNotesText(first.amounts)).toBe(note);

    const refreshed = await refreshTable(f.client, f.workbook, first.tableName);
    expect(check(first.tableName)).toEqual({ odd: ["#,##0.000", "10.005"], others: new Set(["#,##0.00"]) });
    expect(amountNotesText(refreshed.amounts)).toBe(note);

    odd.amount = 10.01;
    const fixed = await refreshTable(f.client, f.workbook, first.tableName);
    expect(check(first.tableName)).toEqual({ odd: ["#,##0.00", "10.01"], others: new Set(["#,##0.00"]) });
    expect(amountNotesText(fixed.amounts)).toBe("");
  });

  it("a code ISO 4217 does not list shows the amount with exactly its own decimals, and the load names the code", async () => {
    const expenses = f.sandbox.store.expensesOf(f.sub);
    const [btc, hrk] = expenses.filter((e) => e.currency === "CLP");
    Object.assign(btc, { currency: "XBT", amount: 0.00123456, net_amount: 0.00123456, tax_amount: 0 });
    Object.assign(hrk, { currency: "HRK", amount: 75.5, net_amount: 75.5, tax_amount: 0 });
    const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const { row, text } = shown(report.tableName);
    expect(["Amount", "Net amount", "Tax amount"].map((h) => text(h, row(btc.id)))).toEqual(["0.00123456", "0.00123456", "0"]);
    expect(text("Amount", row(hrk.id))).toBe("75.5");
    expect(report.amounts.unknownCurrencies).toEqual([{ code: "HRK", amounts: 3 }, { code: "XBT", amounts: 3 }]);
    expect(amountNotesText(report.amounts)).toMatch(/^HRK is not an ISO 4217 currency code \(list of \d{4}-\d{2}-\d{2}\): its 3 amounts are shown with the decimals they have\. XBT is not/);
  });
});
