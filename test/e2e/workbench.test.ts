/**
 * The add-in as a person uses it: the production build, served on loopback, driven in Debian's Chromium
 * (playwright-core, no browser download) against the real sandbox. Screenshots go to test-output/.
 */
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import webpack from "webpack";
import { columnLetters } from "../../src/workbench/fake-excel/address";
import { checkManifest } from "../../tools/manifest-check";
import { ROOT } from "../support/process";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { serveBuild } from "../support/web-server";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, "webpack.config.js"));
const OUT = join(ROOT, "test-output");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

jest.setTimeout(120_000);

/** Waits until the element's text matches (the page works asynchronously), then asserts it. */
async function expectText(locator: Locator, expected: string | RegExp): Promise<void> {
  const deadline = Date.now() + 20_000;
  let text = "";
  while (Date.now() < deadline) {
    text = ((await locator.first().textContent({ timeout: 20_000 })) ?? "").trim();
    if (typeof expected === "string" ? text === expected : expected.test(text)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (typeof expected === "string") expect(text).toBe(expected);
  else expect(text).toMatch(expected);
}

let dist: string;
let f: SandboxFixture;
let web: { url: string; close(): Promise<void> };
let browser: Browser;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "spend-dist-"));
  const options = { ...(await config({ workbench: true }, { mode: "production" })), context: ROOT, devtool: false };
  options.output = { ...options.output, path: dist };
  process.env.ADDIN_URL = "https://spendsync.example.com/";
  const stats = await new Promise<webpack.Stats>((resolve, reject) => webpack(options, (e, s) => (e ? reject(e) : resolve(s!))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  f = await withSandbox();
  web = await serveBuild(dist, f.sandbox.baseUrl);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  mkdirSync(OUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await f?.sandbox.close();
});

describe("the production build", () => {
  it("emits the shared-runtime page, functions.js, functions.json, the workbench and a manifest with no localhost left", () => {
    const metadata = JSON.parse(readFileSync(join(dist, "functions.json"), "utf8"));
    expect(metadata.functions.map((fn: { id: string }) => fn.id)).toContain("EXPENSES");
    expect(readFileSync(join(dist, "functions.js"), "utf8")).toContain('CustomFunctions.associate("EXPENSES"');
    expect(readFileSync(join(dist, "taskpane.html"), "utf8")).toMatch(/<script defer(="defer")? src="?taskpane\.js"?><\/script>/);
    const manifest = readFileSync(join(dist, "manifest.xml"), "utf8");
    expect(manifest).not.toMatch(/localhost|127\.0\.0\.1/);
    expect(manifest).toContain("https://spendsync.example.com/taskpane.html");
    expect(checkManifest(manifest, { assetsDir: join(dist, "assets") })).toEqual([]);
  });
});

async function openWorkbench(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${web.url}/workbench.html?enterprise=${f.enterprise.id}`);
  await page.getByLabel("Base URL").waitFor();
  expect(errors).toEqual([]);
  return page;
}

async function connect(page: Page, key: string): Promise<void> {
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Test and save connection" }).click();
  await page.locator("#connect-status:not(.busy)").waitFor();
}

describe("the workbench in Chromium", () => {
  it("a wrong key shows the refusal and saves nothing", async () => {
    const page = await openWorkbench();
    await connect(page, "not-the-demo-key");
    await expectText(page.locator("#connect-status"), `The API key was refused for enterprise ${f.enterprise.id}. Check the key and the enterprise id in the connection settings. The service said: "Invalid API key."`);
    expect(await page.evaluate(() => localStorage.getItem("spendsync.connection"))).toBeNull();
    await page.screenshot({ path: join(OUT, "workbench-wrong-key.png") });
    await page.close();
  });

  it("connect, load expenses, edit state and paid_id cells, preview, sync: the sheet, the journal and the sandbox agree", async () => {
    const page = await openWorkbench();
    await connect(page, f.enterprise.api_key);
    expect(await page.locator("#connect-status").getAttribute("class")).toBe("ok");
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain("spendsync.table");

    const sub = f.enterprise.subsidiaries[0];
    await page.getByLabel("Subsidiary ID").fill(sub);
    await page.getByLabel("State").selectOption("approved");
    await page.getByRole("button", { name: "Load into a table" }).click();
    const approved = f.sandbox.store.expensesOf(sub).filter((e) => e.state === "approved");
    await expectText(page.locator("#load-status"), new RegExp(`^Loaded ${approved.length} rows into SpendExpenses_`));
    await expectText(page.locator('[data-cell="A1"]'), "Expense ID");

    // A person edits row 2 (the first record): State -> paid, Paid ID -> PAY-E2E, through the formula bar.
    const header = await page.locator("tbody tr").first().locator("td").allTextContents();
    const col = (name: string) => columnLetters(header.indexOf(name));
    const first = approved[0];
    await expectText(page.locator('[data-cell="A2"]'), first.id);
    for (const [name, value] of [["State", "paid"], ["Paid ID", "PAY-E2E"]]) {
      await page.locator(`[data-cell="${col(name)}2"]`).click();
      await page.getByLabel("Value or formula").fill(value);
      await page.getByLabel("Value or formula").press("Enter");
      await expectText(page.locator(`[data-cell="${col(name)}2"]`), value);
    }

    await page.getByRole("button", { name: "Preview sync" }).click();
    await expectText(page.locator("#preview-counts"), `1 to send, 0 invalid (will not be sent), ${approved.length - 1} unchanged.`);
    await expectText(page.locator("#preview li"), `Row 2 ${first.id.slice(0, 8)}: will send {"state":"paid","paid_id":"PAY-E2E"} Discard edit`);
    await page.screenshot({ path: join(OUT, "workbench-preview.png") });
    expect(f.sandbox.store.transitionsOf(first.id)).toHaveLength(0);

    await page.getByRole("button", { name: "Confirm and sync" }).click();
    await expectText(page.locator("#sync-status"), "1 applied.");
    await expectText(page.locator(`[data-cell="${col("Sync status")}2"]`), /^Applied \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: approved → paid$/);
    expect(f.sandbox.store.expense(sub, first.id)).toMatchObject({ state: "paid", paid_id: "PAY-E2E" });
    expect(f.sandbox.store.transitionsOf(first.id)).toHaveLength(1);
    await page.screenshot({ path: join(OUT, "workbench-synced.png") });

    await page.locator('[data-sheet="Spend Sync journal"]').click();
    await expectText(page.locator('[data-cell="A1"]'), "Time (UTC)");
    // The write-ahead line ("sending") before the PATCH, then its answer.
    await expectText(page.locator('[data-cell="F2"]'), first.id);
    await expectText(page.locator('[data-cell="K2"]'), "sending");
    await expectText(page.locator('[data-cell="F3"]'), first.id);
    await expectText(page.locator('[data-cell="K3"]'), "applied");
    expect(await page.locator("#grid").textContent()).not.toContain(f.enterprise.api_key);
    await page.close();
  });

  it("a =SPEND formula in the formula bar spills the service's data", async () => {
    const page = await openWorkbench();
    await connect(page, f.enterprise.api_key);
    const sub = f.enterprise.subsidiaries[0];
    await page.locator('[data-cell="B2"]').click();
    await page.getByLabel("Value or formula").fill(`=SPEND.ALLOWANCES("${sub}", "paid")`);
    await page.getByLabel("Value or formula").press("Enter");
    const paid = f.sandbox.store.allowancesOf(sub).filter((a) => a.state === "paid");
    await expectText(page.locator("#formula-status"), new RegExp(`^Spilled ${paid.length + 1} × `));
    await expectText(page.locator('[data-cell="B2"]'), "Allowance ID");
    await expectText(page.locator('[data-cell="B3"]'), paid[0].id);
    await page.getByLabel("Value or formula").fill('=SPEND.EXPENSES("x", "payed")');
    await page.getByLabel("Value or formula").press("Enter");
    await expectText(page.locator("#formula-status"), '#VALUE! state must be one of draft, pending, approved, accounted, paid, rejected; got "payed".');
    await page.screenshot({ path: join(OUT, "workbench-formula.png") });
    await page.close();
  });
});

describe("Check this Excel (Diagnostics), in the workbench", () => {
  it("runs the self-test against the in-memory Excel: every check passes and the temporary sheets are gone", async () => {
    const page = await openWorkbench();
    const sheetsBefore = await page.locator("[data-sheet]").allTextContents();
    await page.locator("#diagnostics summary").click();
    await page.getByRole("button", { name: "Check this Excel" }).click();
    await expectText(page.locator("#check-summary"), "6 of 6 checks passed in the workbench's in-memory Excel. The temporary sheets were deleted.");
    const results = await page.locator("#check-results li strong").allTextContents();
    expect(results).toEqual([
      "✓ Pass: Text stays text in every column kind",
      "✓ Pass: Numbers, dates and formats as written",
      "✓ Pass: A full cell, and a text too long for one",
      "✓ Pass: Statuses written back by a sync",
      "✓ Pass: A block of several megabytes",
      "✓ Pass: The journal grows by appending",
    ]);
    expect(await page.locator("[data-sheet]").allTextContents()).toEqual(sheetsBefore);
    await page.locator("#diagnostics").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, "self-test.png") });
    await page.close();
  });
});
