/**
 * Issue 43, part 8 and part 10's pickers, in Chromium with the production build (with the workbench) served on
 * loopback beside the real sandbox, the page given /demo-ids.json as npm start's dev server gives it.
 * - First use (no id used before on this device, an empty workbook): once connected, the subsidiary picker offers
 *   the demo subsidiaries by name, marked "demo data"; one picked loads, and is offered first as used recently. The billing-period picker offers the
 *   chosen card's periods by their dates. Screenshots: test-output/first-use-subsidiary-picker.png,
 *   test-output/first-use-billing-period-picker.png.
 * - Office 2024 (?excel=office-2024): =SPEND.EXPENSES spills dates and timestamps a person reads, amounts as
 *   numbers. Screenshot: test-output/office-2024-spill.png.
 */
import { join } from "node:path";
import { expectText } from "../support/expect-text";
import { OUT, cell, columnOf, connect, enterInCell, loadedTable, openWorkbench, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(300_000);

let rig: WorkbenchRig;
beforeAll(async () => {
  rig = await startWorkbench({}, { demoIds: true });
});
afterAll(async () => rig?.close());

it("first use: the subsidiary picker offers the demo subsidiaries by name, as demo data; the one picked loads", async () => {
  const { store } = rig.f.sandbox;
  const enterprise = rig.f.enterprise;
  const page = await openWorkbench(rig);
  await connect(page, enterprise.api_key);
  await expectText(page.locator("#connect-status"), /^Connected/);

  await page.getByLabel("Show subsidiary suggestions").click();
  const options = page.getByRole("listbox", { name: "subsidiary" }).getByRole("option");
  await options.first().waitFor();
  const subsidiaries = store.subsidiariesOf(enterprise.id);
  expect(await options.locator(".opt-label").allTextContents()).toEqual(subsidiaries.map((s) => `${s.name} (${s.currency})`));
  expect(await options.locator(".opt-id").allTextContents()).toEqual(subsidiaries.map((s) => s.id));
  expect(new Set(await options.locator(".opt-source").allTextContents())).toEqual(new Set(["demo data"]));
  await page.screenshot({ path: join(OUT, "first-use-subsidiary-picker.png") });

  const spain = subsidiaries.find((s) => s.currency === "EUR")!;
  await options.filter({ hasText: spain.name }).click();
  expect(await page.getByLabel("Subsidiary ID").inputValue()).toBe(spain.id);
  await expectText(page.locator("#subsidiary-id-chosen"), `${spain.name} (EUR)`);
  await page.getByRole("button", { name: "Load into a table" }).click();
  expect(await loadedTable(page)).toMatch(/^SpendExpenses_/);
  // Once used, it comes first as used recently, still by its name; the other demo subsidiaries follow.
  await page.getByLabel("Show subsidiary suggestions").click();
  await expectText(options.first().locator(".opt-source"), "used recently");
  expect(await options.locator(".opt-label").allTextContents()).toEqual([spain, ...subsidiaries.filter((s) => s !== spain)].map((s) => `${s.name} (${s.currency})`));
  await page.close();
});

it("first use: the billing-period picker offers the chosen card's periods by their dates", async () => {
  const { store } = rig.f.sandbox;
  const enterprise = rig.f.enterprise;
  const page = await openWorkbench(rig);
  await connect(page, enterprise.api_key);
  await page.getByLabel("What").selectOption("movements");
  const card = store.cardsOf(enterprise.id)[1];
  await page.getByLabel("Show card suggestions").click();
  const cards = page.getByRole("listbox", { name: "card" }).getByRole("option");
  await cards.filter({ hasText: card.id }).click();
  await page.getByLabel("Show billing period suggestions").click();
  const periods = page.getByRole("listbox", { name: "billing period" }).getByRole("option");
  await periods.first().waitFor();
  const expected = store.billingPeriodsOf(card.id);
  expect(await periods.locator(".opt-label").allTextContents()).toEqual(expected.map((p) => `${p.start_date} to ${p.end_date}`));
  expect(await periods.locator(".opt-id").allTextContents()).toEqual(expected.map((p) => p.id));
  expect(new Set(await periods.locator(".opt-source").allTextContents())).toEqual(new Set(["demo data"]));
  await page.screenshot({ path: join(OUT, "first-use-billing-period-picker.png") });
  await page.close();
});

it("Office 2024: =SPEND.EXPENSES shows dates and timestamps as ISO text, amounts as numbers", async () => {
  const { store } = rig.f.sandbox;
  const enterprise = rig.f.enterprise;
  const page = await rig.browser.newPage({ viewport: { width: 1500, height: 950 } });
  await page.goto(`${rig.url}/workbench.html?excel=office-2024&enterprise=${enterprise.id}`);
  await connect(page, enterprise.api_key);
  const sub = enterprise.subsidiaries[0];
  const e = store.expensesOf(sub)[0];
  await enterInCell(page, "A1", `=SPEND.EXPENSES("${sub}")`);
  await expectText(cell(page, "A2"), e.id);
  await expectText(cell(page, `${await columnOf(page, "Date")}2`), e.date);
  await expectText(cell(page, `${await columnOf(page, "Created (UTC)")}2`), new RegExp(`^${e.created_at.slice(0, 10)} \\d{2}:\\d{2}:\\d{2}$`));
  // A number, right-aligned as Excel aligns numbers, in General: the amount as the service sent it.
  const amount = cell(page, `${await columnOf(page, "Amount")}2`);
  await expectText(amount, String(e.amount));
  expect(await amount.getAttribute("class")).toMatch(/\bnum\b/);
  await page.screenshot({ path: join(OUT, "office-2024-spill.png") });
  await page.close();
});
