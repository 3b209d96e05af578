/**
 * Issue 43, parts 2 and 6, as a person meets them in the workbench (the production build in Debian's Chromium,
 * against the real sandbox): the ribbon's Sync states previews the table on the sheet on screen, not the one the
 * taskpane last picked, and opens on it; a load that fails on its second page says so in words, with the address on
 * a details line, and the pane never scrolls sideways. Screenshots go to test-output/.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { expectText } from "../support/expect-text";
import { OUT, columnOf, connect, enterInCell, loadedTable, openWorkbench, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(180_000);

let rig: WorkbenchRig;
// Four times the demo data: a subsidiary's expenses fill two pages of 1,000.
beforeAll(async () => (rig = await startWorkbench({ scale: 4 })));
afterAll(async () => rig?.close());

/** Where `el` is, against the browser's viewport and the taskpane's visible part (the pane scrolls on its own). */
async function placeOf(page: Page, el: Locator) {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const pane = node.closest("aside")!.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, paneTop: pane.top, paneBottom: Math.min(pane.bottom, window.innerHeight), focused: document.activeElement === node };
  });
}

/** `el` is wholly in the visible part of the pane, within the viewport. */
async function expectInView(page: Page, el: Locator): Promise<void> {
  const at = await placeOf(page, el);
  expect(at.bottom - at.top).toBeGreaterThan(0);
  expect([at.top >= at.paneTop, at.bottom <= at.paneBottom]).toEqual([true, true]);
}

/** The elements of the pane that scroll sideways (a line too long for it): none, whatever it says. A field scrolls its own text. */
const tooWide = (page: Page) => page.evaluate(() => [document.querySelector("aside")!, ...document.querySelectorAll("#app *")]
  .filter((el) => !["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) && el.scrollWidth > el.clientWidth && el.clientWidth > 0)
  .map((el) => `${el.tagName}#${el.id}.${el.className}`));

/** The sheet a table is on, as the in-memory Excel holds it. */
const sheetOf = (page: Page, table: string) => page.evaluate((name) => Reflect.get(window, "spendWorkbench").excel.model.table(name)?.sheet.name as string, table);

it("Sync states on the ribbon previews the expenses on screen (7 edits), not the empty table loaded after them, and opens there (1366 x 768)", async () => {
  const page = await openWorkbench(rig, { width: 1366, height: 768 });
  await connect(page, rig.f.enterprise.api_key);
  const sub = rig.f.enterprise.subsidiaries[0];
  await page.getByLabel("Subsidiary ID").fill(sub);
  await page.getByLabel("State").selectOption("approved");
  await page.getByRole("button", { name: "Load into a table" }).click();
  const expenses = await loadedTable(page);
  const state = await columnOf(page, "State");
  for (let row = 2; row <= 8; row++) await enterInCell(page, `${state}${row}`, "accounted", "accounted");

  // A load of something else that finds nothing: its table is new, shown, and picked in the taskpane.
  await page.getByLabel("State").selectOption("");
  await page.getByLabel("Created from").fill("2099-01-01");
  await page.getByRole("button", { name: "Load into a table" }).click();
  await expectText(page.locator("#load-status"), /^Loaded 0 rows into \S+ /);
  const empty = await loadedTable(page);
  expect(empty).not.toBe(expenses);
  expect(await page.locator("#table").inputValue()).toBe(empty);

  // Back to the expenses' sheet, and the ribbon's Sync states.
  const sheet = await sheetOf(page, expenses);
  await page.locator(`[data-sheet="${sheet}"]`).click();
  await page.getByRole("button", { name: "Sync states" }).click();
  await expectText(page.locator("#preview-counts"), /^7 to send, 0 invalid \(will not be sent\), \d+ unchanged\.$/);
  await expectText(page.locator("#sync-target"), `Previewing ${expenses}, the table on the sheet '${sheet}'.`);
  expect(await page.locator("#preview ul.rows li").count()).toBe(7);
  expect(await page.locator("#table").inputValue()).toBe(expenses);
  await page.locator("#ribbon-syncStates:not([disabled])").waitFor();
  // Where the person looks: the sentence naming the table, the next step, the counts and the rows, in view; the focus on the first.
  await expectInView(page, page.locator("#sync-target"));
  await expectInView(page, page.locator("#sync-status"));
  await expectInView(page, page.locator("#preview-counts"));
  await expectInView(page, page.locator("#preview ul.rows"));
  expect((await placeOf(page, page.locator("#sync-target"))).focused).toBe(true);
  expect(await tooWide(page)).toEqual([]);
  await page.screenshot({ path: join(OUT, "ribbon-sync-states-previews-the-sheet-on-screen.png") });

  // Refresh data: every table refreshed, its summary in view and focused.
  await page.locator("#h-load").scrollIntoViewIfNeeded();
  await page.getByRole("button", { name: "Refresh data" }).click();
  await page.locator("#ribbon-refreshData:not([disabled])").waitFor();
  await expectText(page.locator("#refresh-all-status"), "Refreshed 2 of 2 tables; formulas recalculated.");
  await expectInView(page, page.locator("#refresh-all-status"));
  expect((await placeOf(page, page.locator("#refresh-all-status"))).focused).toBe(true);
  await page.screenshot({ path: join(OUT, "ribbon-refresh-data-summary-in-view.png") });
  await page.close();
});

it("a sheet with no Spend Sync table: the taskpane's pick, named, with why", async () => {
  const page = await openWorkbench(rig, { width: 1600, height: 1000 });
  await connect(page, rig.f.enterprise.api_key);
  await page.getByLabel("Subsidiary ID").fill(rig.f.enterprise.subsidiaries[1]);
  await page.getByLabel("State").selectOption("approved");
  await page.getByRole("button", { name: "Load into a table" }).click();
  const expenses = await loadedTable(page);
  await page.locator('[data-sheet="Sheet1"]').click();
  await page.getByRole("button", { name: "Sync states" }).click();
  await expectText(page.locator("#sync-target"), `Previewing ${expenses}, the table picked in the taskpane: the sheet 'Sheet1' holds no Spend Sync table.`);
  await expectText(page.locator("#sync-status"), "Nothing to sync: no edited rows.");
  await expectInView(page, page.locator("#sync-status"));
  await page.close();
});

it("a load that fails on page 2 says so in words, says the partial table was removed, and puts the address on a line that wraps", async () => {
  const page = await openWorkbench(rig, { width: 1366, height: 768 });
  // The service answers page 1 and fails on page 2 (every try): a gateway's 504, as the issue met it.
  await page.route((url) => url.pathname.endsWith("/expenses/") && url.searchParams.get("page") === "2", (route) =>
    route.fulfill({ status: 504, contentType: "application/json", body: JSON.stringify({ status: 504, error: "Gateway timeout" }) }));
  await connect(page, rig.f.enterprise.api_key);
  const sub = rig.f.enterprise.subsidiaries[0];
  expect(rig.f.sandbox.store.expensesOf(sub).length).toBeGreaterThan(1000);
  await page.getByLabel("Subsidiary ID").fill(sub);
  await page.getByRole("button", { name: "Load into a table" }).click();
  const status = page.locator("#load-status.error");
  await status.waitFor({ timeout: 120_000 });
  const sentence = await status.evaluate((el) => el.firstChild?.textContent);
  expect(sentence).toBe(`The service failed (HTTP 504) while reading page 2 of the expenses of subsidiary ${sub.slice(0, 8)}; try again later. ` +
    'The service said: "Gateway timeout". The partial table was removed: nothing was written.');
  await expectText(page.locator("#load-status .details"), `GET /proxy/public/v1/enterprises/${rig.f.enterprise.id}/subsidiaries/${sub}/expenses/?expand=cost_center%2Ccategory%2Cuser%2Capproved_by%2Cfund%2Cfare&page=2&page_size=1000`);
  // Nothing left in the workbook: no table, no sheet of it.
  expect(await page.evaluate(() => Reflect.get(window, "spendWorkbench").excel.model.tables.length)).toBe(0);
  // Nothing runs out of the pane: neither the pane nor any line in it scrolls sideways.
  expect(await tooWide(page)).toEqual([]);
  await status.scrollIntoViewIfNeeded();
  await expectInView(page, status);
  await page.screenshot({ path: join(OUT, "load-fails-on-page-2-in-words.png") });
  await page.close();
});

it("Sync states pressed while a sync runs shows that run and starts no second one: each PATCH leaves once (review of issue 43's part 2)", async () => {
  const page = await openWorkbench(rig, { width: 1600, height: 1000 });
  // Every PATCH is held at the page's edge until the ribbon has been pressed, as on a slow link.
  const patches: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => url.pathname.includes("/expenses/"), async (route) => {
    if (route.request().method() === "PATCH") {
      patches.push(new URL(route.request().url()).pathname);
      await held;
    }
    await route.continue();
  });
  await connect(page, rig.f.enterprise.api_key);
  const sub = rig.f.enterprise.subsidiaries[1];
  await page.getByLabel("Subsidiary ID").fill(sub);
  await page.getByLabel("State").selectOption("approved");
  await page.getByRole("button", { name: "Load into a table" }).click();
  await loadedTable(page);
  const state = await columnOf(page, "State");
  for (let row = 2; row <= 4; row++) await enterInCell(page, `${state}${row}`, "accounted", "accounted");
  await page.getByRole("button", { name: "Preview sync" }).click();
  await expectText(page.locator("#preview-counts"), /^3 to send/);
  await page.getByRole("button", { name: "Confirm and sync" }).click();
  for (let i = 0; i < 600 && patches.length < 3; i++) await new Promise((r) => setTimeout(r, 100));
  expect(patches.length).toBe(3);
  // The run is waiting on its PATCHes: the ribbon's Sync states must not open a new preview Confirm could send.
  await page.locator("#ribbon-syncStates").click();
  await page.locator("#ribbon-syncStates:not([disabled])").waitFor();
  expect(await page.locator("#confirm-sync").isDisabled()).toBe(true);
  release();
  await expectText(page.locator("#sync-status"), /^3 applied\./);
  expect([patches.length, new Set(patches).size]).toEqual([3, 3]);
  expect(await page.locator("#confirm-sync").isDisabled()).toBe(true);
  await page.close();
});
