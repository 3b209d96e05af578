/**
 * Issue 47 in the browser: a person types a lookup into a Paid ID cell of the workbench (the production build,
 * Debian's Chromium, the real sandbox), sees its value, previews and syncs; the service gets the value Excel
 * calculated, and the cell then holds the server's value. Screenshot: test-output/workbench-formula-paid-id.png.
 */
import { join } from "node:path";
import { expectText } from "../support/expect-text";
import { OUT, cell, columnOf, connect, enterInCell, loadApprovedExpenses, openWorkbench, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

// The workbench build (HyperFormula included: the in-memory Excel calculates with it) takes minutes on a loaded machine.
jest.setTimeout(600_000);

let rig: WorkbenchRig;

beforeAll(async () => {
  rig = await startWorkbench();
});

afterAll(async () => rig?.close());

it("=XLOOKUP typed into a Paid ID cell shows the payment found; Preview and Sync send that value, never the formula", async () => {
  const { f } = rig;
  const page = await openWorkbench(rig);
  await connect(page, f.enterprise.api_key);
  const { sub, approved } = await loadApprovedExpenses(page, f);
  const first = approved[0];
  await expectText(cell(page, "A2"), first.id);
  const expensesSheet = (await page.locator("[data-sheet]").allTextContents()).find((name) => name.startsWith("Expenses"))!;

  // The bank's file, pasted on Sheet1 by hand: the first record's number and its payment, and another line.
  await page.locator('[data-sheet="Sheet1"]').click();
  await enterInCell(page, "A1", "Ref", "Ref");
  await enterInCell(page, "B1", "Payment id", "Payment id");
  await enterInCell(page, "A2", "99999999", "99999999");
  await enterInCell(page, "B2", "PAY-OTHER", "PAY-OTHER");
  await enterInCell(page, "A3", String(first.expense_number), String(first.expense_number));
  await enterInCell(page, "B3", "PAY-XL-1", "PAY-XL-1");

  await page.locator(`[data-sheet="${expensesSheet}"]`).click();
  await expectText(cell(page, "A2"), first.id);
  const paidId = await columnOf(page, "Paid ID");
  const state = await columnOf(page, "State");
  await enterInCell(page, `${state}2`, "paid", "paid");
  await enterInCell(page, `${paidId}2`, "=XLOOKUP([@[Expense #]],Sheet1!A2:A3,Sheet1!B2:B3)", "PAY-XL-1");
  // The formula bar shows the formula, the cell its value.
  await cell(page, `${paidId}2`).click();
  expect(await page.getByLabel("Value or formula").inputValue()).toBe("=XLOOKUP([@[Expense #]],Sheet1!A2:A3,Sheet1!B2:B3)");

  await page.getByRole("button", { name: "Preview sync" }).click();
  await expectText(page.locator("#preview-counts"), `1 to send, 0 invalid (will not be sent), ${approved.length - 1} unchanged.`);
  await expectText(page.locator("#preview li"), `Row 2 ${first.id.slice(0, 8)}: will send approved → paid (Paid ID: PAY-XL-1) Discard edit`);
  await page.screenshot({ path: join(OUT, "workbench-formula-paid-id.png") });

  await page.getByRole("button", { name: "Confirm and sync" }).click();
  await expectText(page.locator("#sync-status"), "1 applied.");
  expect(f.sandbox.store.expense(sub, first.id)).toMatchObject({ state: "paid", paid_id: "PAY-XL-1" });
  // The server holds the value: the cell shows it, as a value (the formula bar too).
  await expectText(cell(page, `${paidId}2`), "PAY-XL-1");
  await cell(page, `${paidId}2`).click();
  expect(await page.getByLabel("Value or formula").inputValue()).toBe("PAY-XL-1");
  await page.close();
});
