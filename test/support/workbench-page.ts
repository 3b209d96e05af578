/**
 * Browser tests of the workbench: the production build with the workbench, served on loopback against the
 * real sandbox, driven in Debian's Chromium; and what a person does there (connect, type in a cell, read a
 * table as the in-memory Excel holds it).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { columnLetters } from "../../src/workbench/fake-excel/address";
import { launchChromium } from "./chromium";
import { expectText } from "./expect-text";
import { ROOT } from "./process";
import { withSandbox, type SandboxFixture } from "./sandbox";
import type { SandboxOptions } from "../../src/sandbox/server";
import { serveBuild } from "./web-server";
import { productionBuild } from "./production-build";
import { demoIds } from "../../tools/demo-ids";

export const OUT = join(ROOT, "test-output");

export interface WorkbenchRig {
  f: SandboxFixture;
  /** The production build (with the workbench) the page is served from. */
  dist: string;
  browser: Browser;
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the production bundle with the workbench (once for all test files: production-build.ts), starts the
 * sandbox (with `sandbox`'s options), serves both, launches Chromium. With `demoIds`, the page is served the
 * demo ids as npm start's dev server serves them.
 */
export async function startWorkbench(sandbox: SandboxOptions = {}, { demoIds: withDemoIds = false } = {}): Promise<WorkbenchRig> {
  const dist = await productionBuild();
  const f = await withSandbox(sandbox);
  const web = await serveBuild(dist, f.sandbox.baseUrl, withDemoIds ? { "/demo-ids.json": demoIds(f.sandbox.manifest()) } : {});
  const browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
  return {
    f, dist, browser, url: web.url,
    close: async () => {
      await browser.close();
      await web.close();
      await f.sandbox.close();
    },
  };
}

export async function openWorkbench(rig: WorkbenchRig, viewport = { width: 1500, height: 950 }): Promise<Page> {
  const page = await rig.browser.newPage({ viewport });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${rig.url}/workbench.html?enterprise=${rig.f.enterprise.id}`);
  await page.getByLabel("Base URL").waitFor();
  expect(errors).toEqual([]);
  return page;
}

export async function connect(page: Page, key: string): Promise<void> {
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Test and save connection" }).click();
  await page.locator("#connect-status:not(.busy)").waitFor();
}

export const cell = (page: Page, address: string): Locator => page.locator(`[data-cell="${address}"]`);

/** The column letter of a header in row 1 of the sheet shown. */
export async function columnOf(page: Page, header: string): Promise<string> {
  const headers = await page.locator("tbody tr").first().locator("td").allTextContents();
  expect(headers).toContain(header);
  return columnLetters(headers.indexOf(header));
}

/** Types into the formula bar as a person does: click the cell, type, Enter; with `shown`, waits until the cell shows it. */
export async function enterInCell(page: Page, address: string, value: string, shown?: string): Promise<void> {
  await cell(page, address).click();
  await page.getByLabel("Value or formula").fill(value);
  await page.getByLabel("Value or formula").press("Enter");
  if (shown !== undefined) await expectText(cell(page, address), shown);
}

/** The name of the table a load or refresh just wrote, from its status line. */
export async function loadedTable(page: Page, status = "#load-status"): Promise<string> {
  await expectText(page.locator(status), /^Loaded \d+ rows into \S+ /);
  return /into (\S+) /.exec((await page.locator(status).textContent()) ?? "")![1];
}

export interface ModelTable {
  header: string[];
  values: (h: string) => unknown[];
  fills: (h: string) => (string | undefined)[];
}

/** A table as the in-memory Excel holds it (values and fills), read in the page. */
export async function modelTable(page: Page, tableName: string): Promise<ModelTable> {
  // As one JSON text: Playwright hands a returned object over the protocol node by node, which for a
  // 1,200-row table took 7-30 s on this machine; a string of the same cells takes well under one.
  const json = await page.evaluate((name) => {
    const { excel } = Reflect.get(window, "spendWorkbench");
    const table = excel.model.table(name);
    if (!table) return null;
    const { sheet, area } = table;
    return JSON.stringify(Array.from({ length: area.rowCount }, (_, r) => Array.from({ length: area.columnCount }, (_, c) => {
      const at = sheet.cell(area.row + r, area.column + c);
      return { value: at?.value ?? "", fill: at?.fill };
    })));
  }, tableName);
  if (!json) throw new Error(`no table ${tableName} in the model`);
  const read: { value: unknown; fill?: string }[][] = JSON.parse(json);
  const header = read[0].map((c) => String(c.value));
  const at = (h: string) => {
    expect(header).toContain(h);
    return header.indexOf(h);
  };
  // The column is found (and its header asserted) once per call, not once per row: a row-wise lookup made
  // reading a 1,200-row table column by column cost millions of expect() calls (minutes in the import test).
  const column = <K extends "value" | "fill">(h: string, key: K) => {
    const c = at(h);
    return read.slice(1).map((r) => r[c][key]);
  };
  return { header, values: (h) => column(h, "value"), fills: (h) => column(h, "fill") };
}

/**
 * Loads the first subsidiary's approved expenses through the taskpane's form (in the workbench or any page that
 * mounts the taskpane) and waits for its status line to count them; the subsidiary and the records loaded.
 */
export async function loadApprovedExpenses(page: Page, f: SandboxFixture): Promise<{ sub: string; approved: ReturnType<SandboxFixture["sandbox"]["store"]["expensesOf"]> }> {
  const sub = f.enterprise.subsidiaries[0];
  await page.getByLabel("Subsidiary ID").fill(sub);
  await page.getByLabel("State").selectOption("approved");
  await page.getByRole("button", { name: "Load into a table" }).click();
  const approved = f.sandbox.store.expensesOf(sub).filter((e) => e.state === "approved");
  await expectText(page.locator("#load-status"), new RegExp(`^Loaded ${approved.length} rows into SpendExpenses_`));
  return { sub, approved };
}

/** Loads a subsidiary's expenses (every state) through the taskpane; the table's name. */
export async function loadAllExpenses(page: Page, subsidiaryId: string): Promise<string> {
  await page.getByLabel("Subsidiary ID").fill(subsidiaryId);
  await page.getByRole("button", { name: "Load into a table" }).click();
  return loadedTable(page);
}

/** A record's row in the sheet (1-based, as the grid shows it). */
export async function sheetRow(page: Page, table: string, id: string): Promise<number> {
  const t = await modelTable(page, table);
  const index = t.values(t.header[0]).indexOf(id);
  expect(index).toBeGreaterThanOrEqual(0);
  return index + 2;
}
