/**
 * Issue 24's scenarios, replayed as a finance user does them in the workbench (Chromium, the production
 * build, the real sandbox): unsynced edits keep their status and mark through Refresh and Refresh All; a
 * value typed in a column that is not synced is named and replaced only with the user's consent; Refresh
 * All goes through every table and says which one failed. Screenshots go to test-output/.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expectText } from "../support/expect-text";
import { OUT, cell, columnOf, connect, enterInCell, loadedTable, modelTable, openWorkbench, startWorkbench, loadAllExpenses, sheetRow, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(180_000);

const EDITED = "#F8CBAD";
const EDITABLE = "#FFF4CE";

let rig: WorkbenchRig;
beforeAll(async () => {
  rig = await startWorkbench();
});
afterAll(async () => rig?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: join(OUT, `finance-day-${name}.png`) });

/** What the user sees of some records' rows: status and the fills of the edited columns. */
async function rowsAsShown(page: Page, table: string, ids: string[]) {
  const t = await modelTable(page, table);
  const at = (id: string) => t.values(t.header[0]).indexOf(id);
  return ids.map((id) => ({
    status: t.values("Sync status")[at(id)],
    fills: ["State", "Accounted ID", "Paid ID", "Paid at (UTC)"].map((h) => t.fills(h)[at(id)]),
    values: ["State", "Accounted ID", "Paid ID", "Paid at (UTC)"].map((h) => t.values(h)[at(id)]),
  }));
}

describe("issue 24, scenario 1: unsynced edits keep their mark and status", () => {
  it("edit, preview, confirm with invalid rows, Refresh, Refresh All, preview again: every edited row says what it is at each step", async () => {
    const page = await openWorkbench(rig);
    await connect(page, rig.f.enterprise.api_key);
    const table = await loadAllExpenses(page, rig.f.enterprise.subsidiaries[0]);
    const sub = rig.f.enterprise.subsidiaries[0];
    const expenses = rig.f.sandbox.store.expensesOf(sub);
    const [a, c] = expenses.filter((e) => e.state === "approved");
    const b = expenses.find((e) => e.state === "paid")!;
    const [state, accounted, paidAt] = [await columnOf(page, "State"), await columnOf(page, "Accounted ID"), await columnOf(page, "Paid at (UTC)")];
    // a: paid, with a Paid at typed the way a person writes a date; b: paid → accounted; c: a valid change.
    await enterInCell(page, `${state}${await sheetRow(page, table, a.id)}`, "paid");
    await enterInCell(page, `${paidAt}${await sheetRow(page, table, a.id)}`, "24/11/2026");
    await enterInCell(page, `${state}${await sheetRow(page, table, b.id)}`, "accounted");
    await enterInCell(page, `${state}${await sheetRow(page, table, c.id)}`, "accounted");
    await enterInCell(page, `${accounted}${await sheetRow(page, table, c.id)}`, "ACC-E2E-1");

    await page.getByRole("button", { name: "Preview sync" }).click();
    await expectText(page.locator("#preview-counts"), /^1 to send, 2 invalid \(will not be sent\)/);
    const [a1, b1, c1] = await rowsAsShown(page, table, [a.id, b.id, c.id]);
    expect(a1.status).toMatch(/^Invalid: /);
    expect(b1.status).toMatch(/^Invalid: /);
    expect(c1.status).toBe("Will send: approved → accounted (Accounted ID: ACC-E2E-1)");
    expect([a1.fills, b1.fills, c1.fills]).toEqual([[EDITED, EDITABLE, EDITABLE, EDITED], [EDITED, EDITABLE, EDITABLE, EDITABLE], [EDITED, EDITED, EDITABLE, EDITABLE]]);

    await page.getByRole("button", { name: "Confirm and sync" }).click();
    await expectText(page.locator("#sync-status"), /^1 applied, 2 invalid \(not sent\)\./);
    const [a2, b2, c2] = await rowsAsShown(page, table, [a.id, b.id, c.id]);
    expect(a2.status).toMatch(/^Not sent, fix the row /);
    expect(b2.status).toMatch(/^Not sent, fix the row /);
    expect(c2.status).toMatch(/^Applied .*: approved → accounted$/);
    expect([a2.fills, b2.fills]).toEqual([a1.fills, b1.fills]);
    expect(c2.fills).toEqual([EDITABLE, EDITABLE, EDITABLE, EDITABLE]);
    await shot(page, "1-synced");

    // Refresh: the edits stay, marked, and their status says what they are (not a blank that looks like the server's value).
    await page.getByRole("button", { name: "Refresh selected table" }).click();
    await expectText(page.locator("#refresh-status"), /Your unsynced edits: 2 kept, 0 also changed on the server/);
    const [a3, b3, c3] = await rowsAsShown(page, table, [a.id, b.id, c.id]);
    expect(a3.status).toBe("Unsynced: paid, Paid at 24/11/2026 (server: approved)");
    expect(b3.status).toMatch(/^Unsynced: accounted(, [^()]*)? \(server: paid(, [^()]*)?\)$/);
    expect([a3.fills, b3.fills]).toEqual([a1.fills, b1.fills]);
    expect([a3.values, b3.values]).toEqual([a2.values, b2.values]);
    expect(c3).toMatchObject({ status: "", fills: [EDITABLE, EDITABLE, EDITABLE, EDITABLE] });
    await shot(page, "2-refreshed");

    // Refresh All: the same.
    await page.getByRole("button", { name: "Refresh all tables" }).click();
    await expectText(page.locator("#refresh-all-status"), /^Refreshed 1 of 1 table; formulas recalculated\.$/);
    await expectText(page.locator(`#refresh-all-list li[data-table="${table}"]`), new RegExp(`^${table}: Loaded \\d+ rows into ${table} .*Your unsynced edits: 2 kept`));
    const [a4, b4] = await rowsAsShown(page, table, [a.id, b.id]);
    expect([a4, b4]).toEqual([a3, b3]);

    // Preview again: what it says of each edited row is what it said before the refresh.
    await page.getByRole("button", { name: "Preview sync" }).click();
    await expectText(page.locator("#preview-counts"), /^0 to send, 2 invalid \(will not be sent\)/);
    const [a5, b5] = await rowsAsShown(page, table, [a.id, b.id]);
    expect([a5.status, b5.status]).toEqual([a1.status, b1.status]);
    expect([a5.fills, b5.fills]).toEqual([a1.fills, b1.fills]);
    await shot(page, "3-preview-again");
    await page.close();
  });
});

describe("issue 24, scenario 3: a value typed in a column that is not synced", () => {
  it("is named by Preview, and replaced by Refresh only when the user says so; one in a record the service did not change is left alone", async () => {
    const page = await openWorkbench(rig);
    await connect(page, rig.f.enterprise.api_key);
    const table = await loadAllExpenses(page, rig.f.enterprise.subsidiaries[0]);
    const sub = rig.f.enterprise.subsidiaries[0];
    const [x, y] = rig.f.sandbox.store.expensesOf(sub).filter((e) => e.state === "approved").slice(5);
    const amount = await columnOf(page, "Amount");
    const rowX = await sheetRow(page, table, x.id);
    const rowY = await sheetRow(page, table, y.id);
    await enterInCell(page, `${amount}${rowX}`, "999");
    await enterInCell(page, `${amount}${rowY}`, "888");

    await page.getByRole("button", { name: "Preview sync" }).click();
    await expectText(page.locator("#preview-counts"), /, 2 values typed in the service's columns \(never sent; marked, and named in Sync status\)\.$/);
    const previewed = await modelTable(page, table);
    const at = (id: string) => previewed.values("Expense ID").indexOf(id);
    expect(previewed.values("Sync status")[at(x.id)]).toMatch(/^Not sent: Amount is the service's \(typed here: Amount 999\)/);
    expect(previewed.fills("Amount")[at(x.id)]).toBe(EDITED);

    // The service changes x: Refresh asks; the user keeps theirs.
    rig.f.sandbox.store.expense(sub, x.id)!.description = "Changed on the server (1)";
    await page.getByRole("button", { name: "Refresh selected table" }).click();
    await expectText(page.locator("#typed-question-text"), new RegExp(`^The service changed 1 record of ${table} in which you typed over its own cells \\(1 value;`));
    await expectText(page.locator("#typed-question li").first(), `Row ${rowX}, Amount: you typed 999; the service now has ${x.amount}.`);
    await shot(page, "4-typed-question");
    await page.getByRole("button", { name: "Keep mine (marked)" }).click();
    await expectText(page.locator("#refresh-status"), /1 value you typed over the service's cells of changed records kept, and marked/);
    let t = await modelTable(page, table);
    expect([t.values("Amount")[at(x.id)], t.fills("Amount")[at(x.id)], t.values("Description")[at(x.id)]]).toEqual([999, EDITED, "Changed on the server (1)"]);
    expect([t.values("Amount")[at(y.id)], t.fills("Amount")[at(y.id)]]).toEqual([888, EDITED]);
    expect(await page.locator("#typed-question").count()).toBe(0);

    // Again: this time the user takes the service's value; y, whose record did not change, is never asked about.
    rig.f.sandbox.store.expense(sub, x.id)!.description = "Changed on the server (2)";
    await page.getByRole("button", { name: "Refresh selected table" }).click();
    await expectText(page.locator("#typed-question li").first(), `Row ${rowX}, Amount: you typed 999; the service now has ${x.amount}.`);
    expect(await page.locator("#typed-question li").count()).toBe(1);
    await page.getByRole("button", { name: "Take the service's" }).click();
    await expectText(page.locator("#refresh-status"), /1 value you typed over the service's cells replaced by the service's, as you chose\./);
    t = await modelTable(page, table);
    expect([t.values("Amount")[at(x.id)], t.fills("Amount")[at(x.id)]]).toEqual([x.amount, undefined]);
    expect(t.values("Amount")[at(y.id)]).toBe(888);
    await page.getByRole("button", { name: "Preview sync" }).click();
    await expectText(page.locator("#preview-counts"), /, 1 value typed in the service's columns/);
    await shot(page, "5-typed-replaced");
    await page.close();
  });
});

describe("Refresh All over four tables, one of them failing", () => {
  it("refreshes the other three and reports the fourth, a line each", async () => {
    const page = await openWorkbench(rig);
    await connect(page, rig.f.enterprise.api_key);
    const sub = rig.f.enterprise.subsidiaries[0];
    const names = [await loadAllExpenses(page, rig.f.enterprise.subsidiaries[0])];
    await page.getByLabel("What").selectOption("allowances");
    await page.getByRole("button", { name: "Load into a table" }).click();
    names.push(await loadedTable(page));
    await page.getByLabel("What").selectOption("cards");
    await page.getByRole("button", { name: "Load into a table" }).click();
    names.push(await loadedTable(page));
    const [card] = rig.f.enterprise.cards;
    await page.getByLabel("What").selectOption("movements");
    await page.getByLabel("Card ID").fill(card.id);
    await page.getByLabel("Billing period ID").fill(card.billing_periods[0]);
    await page.getByRole("button", { name: "Load into a table" }).click();
    names.push(await loadedTable(page));
    // The billing period is gone from the service (moved to another card): its movements answer 404.
    rig.f.sandbox.store.billingPeriod(card.id, card.billing_periods[0])!.card_id = "moved-elsewhere";
    rig.f.sandbox.store.expensesOf(sub)[0].description = "Changed for Refresh All";

    await page.getByRole("button", { name: "Refresh all tables" }).click();
    await expectText(page.locator("#refresh-all-status"), "Refreshed 3 of 4 tables; 1 not (see below); formulas recalculated.");
    const lines = await page.locator("#refresh-all-list li").allTextContents();
    expect(lines.map((line) => line.split(":")[0])).toEqual(names);
    expect(lines[0]).toMatch(new RegExp(`^${names[0]}: Loaded \\d+ rows into ${names[0]} \\(0 new, 1 updated, 0 no longer returned by this query\\)\\.`));
    expect(lines[1]).toMatch(/\(0 new, 0 updated, 0 no longer returned by this query\)\./);
    expect(lines[2]).toMatch(/\(0 new, 0 updated, 0 no longer returned by this query\)\./);
    expect(lines[3]).toMatch(new RegExp(`^${names[3]}: not refreshed: Not found`));
    expect(await page.locator("#refresh-all-list li.error").count()).toBe(1);
    await expectText(cell(page, "A1"), /ID$/);
    await shot(page, "6-refresh-all");
    await page.close();
  });
});
