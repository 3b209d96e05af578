/**
 * Issue 43, parts 3 and 7, in Chromium with the production build (with the workbench) served on loopback.
 * Start-up: the built taskpane.html, whose Office.js script tag points at Microsoft's CDN, is opened with that
 * address blocked, with Microsoft's own Office.js (@microsoft/office-js, served in place of the CDN) in a plain
 * browser tab, with an Office whose Excel is too old, and with an Office.js that never says it is ready: each
 * time one sentence says what is wrong and what to do, and nothing throws. A laptop: the workbench at 1366x768
 * and 1600x1000 fits the window, keeps eight sheet tabs on one line, shows the editable columns after a load,
 * and shows #### for a date its column is too narrow for. Screenshots go to test-output/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page, Route } from "playwright-core";
import { NOT_IN_EXCEL, OFFICE_JS_MISSING, OFFICE_JS_STALLED, STALLED_AFTER_MS } from "../../src/taskpane/host-support";
import { expectText } from "../support/expect-text";
import { OUT, cell, columnOf, connect, loadAllExpenses, type WorkbenchRig, startWorkbench } from "../support/workbench-page";

jest.setTimeout(300_000);

let rig: WorkbenchRig;
beforeAll(async () => {
  rig = await startWorkbench();
});
afterAll(async () => rig?.close());

const OFFICE_JS_DIST = join(require.resolve("@microsoft/office-js/package.json"), "..", "dist");
const CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/";

/** A page whose requests leave loopback only through `cdn` (Microsoft's CDN); the rest of the internet is blocked. */
async function taskpane(cdn: (route: Route) => Promise<void>, options: { clock?: boolean } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await rig.browser.newPage({ viewport: { width: 400, height: 700 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route((url) => !url.hostname.startsWith("127.0.0.1"), (route) => (route.request().url().startsWith(CDN) ? cdn(route) : route.abort()));
  if (options.clock) await page.clock.install();
  await page.goto(`${rig.url}/taskpane.html`);
  return { page, errors };
}

/** Answers the CDN with Microsoft's Office.js files from @microsoft/office-js, as Microsoft would serve them. */
const microsoftOfficeJs = async (route: Route) => {
  const file = join(OFFICE_JS_DIST, new URL(route.request().url()).pathname.slice("/lib/1/hosted/".length));
  try {
    await route.fulfill({ body: readFileSync(file), contentType: "text/javascript" });
  } catch {
    await route.abort();
  }
};

/** An Office.js stand-in in Excel: the host is Excel, and it has the sets `supported` says it has. */
const officeIn = (supported: string) => (route: Route) => route.fulfill({
  contentType: "text/javascript",
  body: `window.Office = { onReady: () => Promise.resolve({ host: "Excel", platform: "PC" }),
    context: { requirements: { isSetSupported: ${supported} }, diagnostics: { version: "16.0.14332", platform: "PC" } },
    actions: { associate: () => undefined }, addin: { showAsTaskpane: async () => undefined } };
  window.CustomFunctions = { associate: () => undefined };`,
});

/** The taskpane shows exactly `sentence`, alone, visibly. */
async function saysOnly(page: Page, sentence: string): Promise<void> {
  const notice = page.getByRole("alert");
  await expectText(notice, sentence);
  expect(await notice.isVisible()).toBe(true);
  expect(await page.locator("#app").innerText()).toBe(sentence);
}

describe("the taskpane explains every failure to start (issue 43, part 3)", () => {
  it("with Microsoft's CDN blocked (no Office.js): it says Office.js did not load and what to allow, and nothing throws", async () => {
    const { page, errors } = await taskpane((route) => route.abort());
    await saysOnly(page, OFFICE_JS_MISSING);
    await page.screenshot({ path: join(OUT, "startup-no-office-js.png") });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("with Microsoft's Office.js in a plain browser tab: it says Spend Sync works only inside Excel and how to open it there", async () => {
    const { page, errors } = await taskpane(microsoftOfficeJs);
    await saysOnly(page, NOT_IN_EXCEL);
    await page.screenshot({ path: join(OUT, "startup-outside-office.png") });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("in an Excel without ExcelApi 1.16: it names the set and the Excel that has it", async () => {
    const { page, errors } = await taskpane(officeIn(`(name, version) => name !== "ExcelApi" || Number(version.split(".")[1]) <= 14`));
    await expectText(page.getByRole("alert"), /^This Excel lacks ExcelApi 1\.16 \(to load and sync tables\), so Spend Sync can't run here: ExcelApi 1\.16 comes with .*\.$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("with an Office.js that never says it is ready: nothing until 30 s, then the sentence; the taskpane is never blank after that", async () => {
    const { page, errors } = await taskpane((route) => route.fulfill({ contentType: "text/javascript", body: "window.Office = { onReady: () => new Promise(() => undefined), context: {} };" }), { clock: true });
    await page.clock.runFor(STALLED_AFTER_MS - 1000);
    expect(await page.getByRole("alert").count()).toBe(0);
    await page.clock.runFor(1000);
    await saysOnly(page, OFFICE_JS_STALLED);
    expect(errors).toEqual([]);
    await page.close();
  });
});

const SIZES = [{ width: 1366, height: 768 }, { width: 1600, height: 1000 }];

async function workbench(size: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const page = await rig.browser.newPage({ viewport: size });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${rig.url}/workbench.html?enterprise=${rig.f.enterprise.id}`);
  await page.getByLabel("Base URL").waitFor();
  return { page, errors };
}

/** The box of `selector` lies inside the grid's visible box (not under the taskpane, not scrolled away). */
async function insideGrid(page: Page, selector: string): Promise<boolean> {
  const grid = (await page.locator("#grid").boundingBox())!;
  const box = await page.locator(selector).boundingBox();
  return !!box && box.x >= grid.x && box.x + box.width <= grid.x + grid.width && box.y >= grid.y && box.y + box.height <= grid.y + grid.height;
}

describe("the workbench on a laptop's screen (issue 43, part 7)", () => {
  it.each(SIZES)("at $width x $height: the page fits the window, eight sheet tabs stay on one line and the last one is reached by scrolling", async (size) => {
    const { page, errors } = await workbench(size);
    const names = ["SpendExpenses_Acme_2026_06", "SpendAllowances_Acme_2026_06", "SpendCards_Acme", "SpendMovements_Acme_2026_05",
      "SpendExpenses_Beta_approved", "SpendAllowances_Beta_paid", "Reconciliation June", "Notes for the auditors"];
    await page.evaluate((sheets) => {
      const { excel, view } = Reflect.get(window, "spendWorkbench");
      for (const name of sheets) excel.model.addSheet(name);
      view.render();
    }, names);
    const tabs = page.locator("#tabs button[data-sheet]");
    expect(await tabs.count()).toBe(names.length + 1);
    const tops = await tabs.evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    const heights = await tabs.evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().height)));
    expect(new Set(tops).size).toBe(1);
    expect(Math.max(...heights)).toBeLessThan(32); // one line of text, not two
    const strip = page.locator("#tabs .tab-strip");
    expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true); // they do not all fit: the strip scrolls
    await page.screenshot({ path: join(OUT, `laptop-tabs-${size.width}.png`) });

    // The last tab is out of sight; the right arrow brings it, as Excel's does, and a click shows its sheet.
    const last = page.locator(`#tabs button[data-sheet="${names[names.length - 1]}"]`);
    const whole = async () => {
      const [s, t] = [(await strip.boundingBox())!, (await last.boundingBox())!];
      return t.x >= s.x - 0.5 && t.x + t.width <= s.x + s.width + 0.5;
    };
    expect(await whole()).toBe(false);
    let presses = 0;
    while (!(await whole()) && presses < 10) {
      await page.getByRole("button", { name: "Scroll the sheet tabs right" }).click();
      presses++;
    }
    expect(await whole()).toBe(true);
    await last.click();
    expect(await last.getAttribute("aria-current")).toBe("true");
    expect(await page.evaluate(() => Reflect.get(window, "spendWorkbench").view.sheetName)).toBe(names[names.length - 1]);
    // The left arrow goes back to the first tab, and a redraw does not undo it.
    for (let i = 0; i < presses + 1; i++) await page.getByRole("button", { name: "Scroll the sheet tabs left" }).click();
    await page.evaluate(() => Reflect.get(window, "spendWorkbench").view.render());
    expect(await strip.evaluate((el) => el.scrollLeft)).toBe(0);
    const barBox = (await page.locator("#tabs").boundingBox())!;

    // The page is the window: no page scrollbar, the tabs above its bottom edge.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(size.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(size.height);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each(SIZES)("at $width x $height after loading expenses, State, Accounted ID, Paid ID and Paid at are on screen in the grid", async (size) => {
    const { page, errors } = await workbench(size);
    await connect(page, rig.f.enterprise.api_key);
    await loadAllExpenses(page, rig.f.enterprise.subsidiaries[0]);
    for (const header of ["State", "Accounted ID", "Paid ID", "Paid at (UTC)"]) {
      const column = await columnOf(page, header);
      expect([header, await insideGrid(page, `[data-cell="${column}1"]`)]).toEqual([header, true]);
    }
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(size.height);
    await page.screenshot({ path: join(OUT, `laptop-expenses-${size.width}.png`) });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a date or an amount too wide for its column shows ####, as Excel does; text runs on into the empty cell beside it", async () => {
    const { page, errors } = await workbench(SIZES[0]);
    await page.evaluate(() => {
      const { excel, view } = Reflect.get(window, "spendWorkbench");
      const sheet = excel.model.addSheet("Narrow");
      const put = (row: number, column: number, value: unknown, numberFormat: string) => Object.assign(sheet.ensure(row, column), { value, numberFormat });
      put(0, 0, 46185, "yyyy-mm-dd"); // 2026-06-12
      put(0, 1, 1250000.5, "#,##0.00");
      put(0, 2, "A description longer than its column", "@");
      put(1, 0, 46185, "yyyy-mm-dd");
      put(1, 1, 12.5, "#,##0.00");
      put(1, 2, "Cut", "@");
      sheet.columnWidths.set(0, 48);
      sheet.columnWidths.set(1, 60);
      sheet.columnWidths.set(2, 60);
      sheet.columnWidths.set(3, 80);
      view.showSheet("Narrow");
    });
    await expectText(cell(page, "A1"), /^#+$/);
    await expectText(cell(page, "B1"), /^#+$/);
    expect((await cell(page, "A1").textContent())!.length).toBeGreaterThan(2); // the column's width of #, as Excel fills it
    await expectText(cell(page, "B2"), "12.50");
    await page.screenshot({ path: join(OUT, "laptop-narrow-columns.png"), clip: { x: 0, y: 0, width: 700, height: 300 } });
    // Its own width is too narrow, and the date itself is intact in the formula bar.
    await cell(page, "A1").click();
    expect(await page.getByLabel("Value or formula").inputValue()).toBe("2026-06-12");

    // A wider column shows the date itself.
    await page.evaluate(() => {
      const { excel, view } = Reflect.get(window, "spendWorkbench");
      excel.model.sheet("Narrow").columnWidths.set(0, 90);
      view.render();
    });
    await expectText(cell(page, "A1"), "2026-06-12");
    // Text over an empty neighbour is drawn across it, whole; no "…" anywhere.
    const text = page.locator('[data-cell="C1"] span');
    expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 100)).toBe(true);
    expect(await page.locator("#grid").innerText()).not.toContain("…");
    // A click on the text where it runs over D1 selects D1, the cell under it, as in Excel.
    await cell(page, "D1").click();
    expect(await page.getByLabel("Name box").inputValue()).toBe("D1");
    await page.screenshot({ path: join(OUT, "laptop-wider-column.png"), clip: { x: 0, y: 0, width: 700, height: 300 } });
    expect(errors).toEqual([]);
    await page.close();
  });
});
