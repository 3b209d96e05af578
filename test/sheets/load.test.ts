import { HOSTILE_DESCRIPTIONS } from "../../src/sandbox/demo-tables";
import { SETTING_PREFIX, currencyFormat, loadTable, serialToDate, serialToTimestamp } from "../../src/sheets";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

describe("loading expenses into an Excel table", () => {
  it("has finance headers, one row per record, real dates, numbers, text ids and editable columns with a dropdown", async () => {
    const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const expenses = f.sandbox.store.expensesOf(f.sub);
    expect(report).toMatchObject({ count: expenses.length, added: expenses.length, updated: 0, removed: 0 });
    const t = tableView(f.excel, report.tableName);
    expect(t.sheet.name).toBe(report.sheetName);
    // Read left to right: identity, the editable columns in the order Tab follows, Sync status, then the rest.
    expect(t.header).toEqual([
      "Expense ID", "Expense #", "Date", "Description", "Amount", "Currency", "State", "Accounted ID", "Paid ID", "Paid at (UTC)",
      "Sync status", "Provider", "Type", "Net amount", "Tax amount", "Tax rate %", "USD amount", "Subsidiary amount", "Subsidiary currency",
      "Payment method", "Employee ID", "Cost center ID", "Category ID", "Fund ID", "Document type", "Document #", "Receipt URL",
      "Created (UTC)", "Active",
    ]);
    expect(t.rows).toHaveLength(expenses.length);
    const first = expenses[0];
    const row = t.rows[0];
    expect(row[t.column("Expense ID")]).toBe(first.id);
    expect(row[t.column("Expense #")]).toBe(first.expense_number);
    expect(typeof row[t.column("Date")]).toBe("number");
    expect(serialToDate(row[t.column("Date")] as number)).toBe(first.date);
    expect(t.format("Date")).toBe("yyyy-mm-dd");
    expect(serialToTimestamp(row[t.column("Created (UTC)")] as number)).toBe(first.created_at);
    expect(t.format("Created (UTC)")).toBe("yyyy-mm-dd hh:mm:ss");
    expect(row[t.column("Amount")]).toBe(first.amount);
    expect(t.format("Amount")).toBe(currencyFormat(first.currency)); // CLP: no decimals
    expect(t.format("Expense ID")).toBe("@");
    expect(t.format("Active")).toBe("@"); // Yes / No stay text
    expect(row[t.column("Active")]).toBe(first.is_active ? "Yes" : "No");
    expect(t.values("State")).toEqual(expenses.map((e) => e.state));
    // Editable columns are marked; the state column has a dropdown of the states.
    for (const name of ["State", "Accounted ID", "Paid ID", "Paid at (UTC)"]) expect(t.fill(name)).toBe("#FFF4CE");
    expect(t.fill("Amount")).toBeUndefined();
    const rule = t.sheet.validationAt(t.sheet.cells.size > 0 ? 1 : 1, t.column("State"));
    expect(rule?.list).toEqual({ inCellDropDown: true, source: "draft,pending,approved,accounted,paid,rejected" });
    expect(f.excel.model.table(report.tableName)?.showFilterButton).toBe(true);
  });

  it("keeps text from the service as text: no formula, read back unchanged", async () => {
    const report = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const t = tableView(f.excel, report.tableName);
    const descriptions = t.values("Description");
    for (const hostile of HOSTILE_DESCRIPTIONS) expect(descriptions).toContain(hostile);
    t.rows.forEach((_, i) => expect(t.formula("Description", i)).toBeUndefined());
    // And through the adapter, as the add-in reads it back.
    const read = await f.workbook.readTable(report.tableName);
    expect(read!.rows.map((r) => r[3])).toEqual(f.sandbox.store.expensesOf(f.sub).map((e) => e.description));
  });

  it("with every expand, shows readable names, the ids kept in their own columns for lookups", async () => {
    const report = await loadTable(f.client, f.workbook, {
      resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "paid",
      expand: ["cost_center", "category", "user", "approved_by", "fund", "fare"],
    });
    const t = tableView(f.excel, report.tableName);
    expect(t.header).toEqual(expect.arrayContaining(["Cost center", "Category", "Employee", "Employee email", "Fund", "Approved by", "Fare"]));
    expect(t.header).toEqual(expect.arrayContaining(["Cost center ID", "Category ID", "Employee ID", "Fund ID"]));
    const paid = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "paid");
    expect(t.rows).toHaveLength(paid.length);
    const cc = f.sandbox.store.costCenter(paid[0].cost_center_id)!;
    expect(t.values("Cost center")[0]).toBe(cc.name);
    expect(t.values("Cost center ID")[0]).toBe(paid[0].cost_center_id);
    const user = f.sandbox.store.person(paid[0].user_id)!;
    expect(t.values("Employee")[0]).toBe(`${user.first_name} ${user.last_name}`);
    expect(t.values("Approved by")[0]).toMatch(/\w+ \w+/);
  });

  it("filters: state and created_at range give exactly the service's count", async () => {
    const expenses = f.sandbox.store.expensesOf(f.sub);
    const days = expenses.map((e) => e.created_at.slice(0, 10)).sort();
    const report = await loadTable(f.client, f.workbook, {
      resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved", createdFrom: days[20], createdTo: days[250],
    });
    const expected = expenses.filter((e) => e.state === "approved" && e.created_at.slice(0, 10) >= days[20] && e.created_at.slice(0, 10) <= days[250]);
    expect(report.count).toBe(expected.length);
    expect(tableView(f.excel, report.tableName).values("Expense ID")).toEqual(expected.map((e) => e.id));
  });
});

describe("one table per query", () => {
  it("a filtered load beside the subsidiary's table gets its own table and sheet; the same query again refreshes it", async () => {
    const expenses = f.sandbox.store.expensesOf(f.sub);
    const all = await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const days = expenses.map((e) => e.created_at.slice(0, 10)).sort();
    const query = {
      resource: "expenses" as const, enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" as const,
      createdFrom: days[20], createdTo: days[250], expand: ["user" as const, "category" as const],
    };
    const filtered = await loadTable(f.client, f.workbook, query);
    const short = f.sub.replace(/-/g, "").slice(0, 8);
    expect(filtered.tableName).toBe(`SpendExpenses_${short}_approved_from${days[20].replace(/-/g, "")}_to${days[250].replace(/-/g, "")}_xcategoryxuser`);
    expect(filtered.sheetName).not.toBe(all.sheetName);
    expect(filtered.sheetName.length).toBeLessThanOrEqual(31);
    // The subsidiary's own table is untouched: no row flagged, its id columns intact.
    const whole = tableView(f.excel, all.tableName);
    expect(whole.values("Expense ID")).toEqual(expenses.map((e) => e.id));
    expect(whole.values("Sync status").filter((v) => v !== "")).toEqual([]);
    expect(whole.values("Employee ID")).toEqual(expenses.map((e) => e.user_id));
    const expected = expenses.filter((e) => e.state === "approved" && e.created_at.slice(0, 10) >= days[20] && e.created_at.slice(0, 10) <= days[250]);
    expect(tableView(f.excel, filtered.tableName).values("Expense ID")).toEqual(expected.map((e) => e.id));
    // The same query again: the same table, refreshed in place (nothing changed on the server: nothing written).
    const again = await loadTable(f.client, f.workbook, query);
    expect(again).toMatchObject({ tableName: filtered.tableName, added: 0, updated: 0, removed: 0, count: expected.length, refreshed: { whole: false } });
    expect(f.excel.model.tables.filter((t) => t.name.startsWith("SpendExpenses_")).map((t) => t.name).sort()).toEqual([all.tableName, filtered.tableName].sort());
  });
});

describe("the other resources", () => {
  it("allowances, with and without expand", async () => {
    const plain = await loadTable(f.client, f.workbook, { resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: f.sub });
    const allowances = f.sandbox.store.allowancesOf(f.sub);
    let t = tableView(f.excel, plain.tableName);
    expect(t.rows).toHaveLength(allowances.length);
    expect(t.values("Amount")[0]).toBe(allowances[0].amount.amount);
    expect(t.values("Currency")[0]).toBe(allowances[0].amount.currency);
    expect(t.sheet.validationAt(1, t.column("State"))?.list.source).toBe("pending,approved,accounted,paid,rejected");
    const expanded = await loadTable(f.client, f.workbook, {
      resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved",
      expand: ["beneficiary", "allowance_segments", "documents"],
    });
    // Another query, another table: the plain one is left as it was. Every expand (the taskpane's default) is "names".
    expect(expanded.tableName).toBe(`${plain.tableName}_approved_names`);
    expect(tableView(f.excel, plain.tableName).rows).toHaveLength(allowances.length);
    t = tableView(f.excel, expanded.tableName);
    expect(t.header).toEqual(expect.arrayContaining(["Beneficiary", "Beneficiary email", "Segments", "Documents"]));
    expect(t.values("Segments")[t.values("State").indexOf("approved")]).toMatch(/per diem|allowance/i);
  });

  it("cards keep their last four digits as text, and expand names the holder and the bank", async () => {
    const report = await loadTable(f.client, f.workbook, { resource: "cards", enterpriseId: f.enterprise.id, expand: ["user", "bank"] });
    const t = tableView(f.excel, report.tableName);
    const cards = f.sandbox.store.cardsOf(f.enterprise.id);
    expect(t.values("Last four digits")).toEqual(cards.map((c) => c.last_four_digits));
    expect(t.values("Card holder")[0]).toMatch(/\w+ \w+/);
    expect(t.values("Bank")[0]).toBe(f.sandbox.store.bank(cards[0].bank_id)!.name);
  });

  it("movements show reconciliation as yes/no with the expense's number, state and amount", async () => {
    const [card] = f.enterprise.cards;
    const report = await loadTable(f.client, f.workbook, { resource: "movements", enterpriseId: f.enterprise.id, cardId: card.id, billingPeriodId: card.billing_periods[0] });
    const t = tableView(f.excel, report.tableName);
    const movements = f.sandbox.store.movementsOf(card.billing_periods[0]);
    expect(t.rows).toHaveLength(movements.length);
    const reconciled = t.values("Reconciled");
    expect(new Set(reconciled)).toEqual(new Set(["Yes", "No"]));
    const i = reconciled.indexOf("Yes");
    const expense = f.sandbox.store.expenseById(movements[i].reconciliation!.expense_id)!;
    expect(t.values("Expense #")[i]).toBe(expense.expense_number);
    expect(t.values("Expense state")[i]).toBe(expense.state);
    expect(t.values("Expense amount")[i]).toBe(expense.amount);
    expect(t.values("Expense #")[reconciled.indexOf("No")]).toBe("");
  });
});

describe("what the workbook keeps", () => {
  it("stores the load parameters for Refresh, and never the key", async () => {
    const params = { resource: "expenses" as const, enterpriseId: f.enterprise.id, subsidiaryId: f.sub, state: "approved" as const };
    const report = await loadTable(f.client, f.workbook, params);
    const stored = JSON.parse(String(f.excel.model.settings.get(SETTING_PREFIX + report.tableName)));
    expect(stored.params).toMatchObject(params);
    const everything = JSON.stringify([...f.excel.model.settings]) +
      f.excel.model.sheets.map((s) => JSON.stringify([...s.cells].map(([, line]) => [...line.values()]))).join("");
    expect(everything).not.toContain(f.enterprise.api_key);
    // The snapshot lives on a very hidden sheet.
    const snapshotSheet = f.excel.model.sheets.find((s) => s.name.startsWith("Snap "));
    expect(snapshotSheet?.visibility).toBe("VeryHidden");
  });

  it("reports progress of the fetch and of the write, and stops when cancelled", async () => {
    const progress: string[] = [];
    await loadTable(f.client, f.workbook, { resource: "expenses", enterpriseId: f.enterprise.id, subsidiaryId: f.sub }, {
      onProgress: (p) => progress.push(`${p.phase}:${p.done}/${p.total}`),
    });
    const total = f.sandbox.store.expensesOf(f.sub).length;
    expect(progress).toContain(`fetch:${total}/${total}`);
    expect(progress.at(-1)).toBe(`write:${total}/${total}`);
    const controller = new AbortController();
    controller.abort();
    await expect(
      loadTable(f.client, f.workbook, { resource: "allowances", enterpriseId: f.enterprise.id, subsidiaryId: f.sub }, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: "CancelledError" });
    expect(f.excel.model.tables.find((t) => t.name.startsWith("SpendAllowances"))).toBeUndefined();
  });
});
