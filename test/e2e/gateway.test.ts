/**
 * The production path in Chromium: the production build (webpack.config.js, leak check on) served from one
 * origin, the gateway in front of the real sandbox allowing only that origin, and the real taskpane bundle
 * connecting, loading and syncing through the gateway. Office.js is the one stand-in: taskpane.html loads a
 * stub (test/gateway/office-stub.ts, built apart from dist/) whose Excel is the in-memory Excel, in place of
 * Microsoft's CDN script. The browser itself enforces CORS: a PATCH with Authorization is preflighted, and a
 * page from another origin is refused at that preflight.
 */
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import webpack from "webpack";
import { formatJson, type AccessLogEntry } from "../../src/gateway";
import { startGateway, type RunningGateway } from "../../src/gateway/node-server";
import { serveOrigin } from "../gateway/static-origin";
import { ROOT } from "../support/process";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { launchChromium } from "../support/chromium";
import { expectText } from "../support/expect-text";
import { productionBuild } from "../support/production-build";
import { loadApprovedExpenses } from "../support/workbench-page";

const OUT = join(ROOT, "test-output");

jest.setTimeout(180_000);

async function compile(options: webpack.Configuration): Promise<void> {
  const stats = await new Promise<webpack.Stats>((resolve, reject) => webpack(options, (e, s) => (e ? reject(e) : resolve(s!))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
}


let dist: string;
let f: SandboxFixture;
let addin: { origin: string; close(): Promise<void> };
let elsewhere: { origin: string; close(): Promise<void> };
let gateway: RunningGateway;
const logLines: string[] = [];
const logged = () => logLines.map((line) => JSON.parse(line) as AccessLogEntry);
let browser: Browser;

beforeAll(async () => {
  dist = await productionBuild(false);
  const stubDir = mkdtempSync(join(tmpdir(), "spend-office-stub-"));
  await compile({
    mode: "development", devtool: false, context: ROOT, target: ["web", "es2020"],
    entry: { "office-stub": "./test/gateway/office-stub.ts" },
    output: { path: stubDir, filename: "[name].js" },
    resolve: { extensions: [".ts", ".js"] },
    module: { rules: [{ test: /\.ts$/, loader: "ts-loader", exclude: /node_modules/, options: { transpileOnly: true, compilerOptions: { module: "esnext", moduleResolution: "bundler" } } }] },
  });

  f = await withSandbox();
  addin = await serveOrigin(dist, join(stubDir, "office-stub.js"));
  elsewhere = await serveOrigin(dist, join(stubDir, "office-stub.js"));
  gateway = await startGateway({ target: f.sandbox.baseUrl, allowOrigins: [addin.origin], log: (entry) => logLines.push(formatJson(entry)) });
  browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await addin?.close();
  await elsewhere?.close();
  await f?.sandbox.close();
});

/**
 * The production taskpane on `origin`. No request interception (page.route): with it, Playwright answers CORS
 * preflights itself and the gateway would never see them. Office.js is the stub, so nothing leaves loopback.
 */
async function openTaskpane(origin: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 420, height: 1100 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${origin}/taskpane.html`);
  await page.getByLabel("Base URL").waitFor();
  return { page, errors };
}

async function connect(page: Page): Promise<void> {
  await page.getByLabel("Base URL").fill(gateway.baseUrl);
  await page.getByLabel("Enterprise ID").fill(f.enterprise.id);
  await page.getByLabel("API key").fill(f.enterprise.api_key);
  await page.getByRole("button", { name: "Test and save connection" }).click();
  await page.locator("#connect-status:not(.busy)").waitFor();
}

describe("the production bundle through the gateway", () => {
  it("is the production build: no workbench, no in-memory Excel, no source maps in dist/", () => {
    const files = readdirSync(dist);
    expect(files).toEqual(expect.arrayContaining(["taskpane.html", "taskpane.js", "functions.js", "functions.json", "manifest.xml"]));
    expect(files.filter((name) => /workbench|sandbox|fake-excel|\.map$/.test(name))).toEqual([]);
  });

  it("connects, loads and syncs from the allowed origin: the PATCH crosses the gateway after a preflight", async () => {
    const { page, errors } = await openTaskpane(addin.origin);
    expect(errors).toEqual([]);
    await connect(page);
    expect(await page.locator("#connect-status").getAttribute("class")).toBe("ok");

    const { sub, approved } = await loadApprovedExpenses(page, f);
    const first = approved[0];
    expect(await page.evaluate(() => (window as unknown as StubWindow).spendStub.read("SpendExpenses_", "Expense ID", 1))).toBe(first.id);

    // The person edits the first record in Excel: State -> paid, Paid ID -> PAY-GW.
    await page.evaluate(() => {
      const stub = (window as unknown as StubWindow).spendStub;
      stub.type("SpendExpenses_", "State", 1, "paid");
      stub.type("SpendExpenses_", "Paid ID", 1, "PAY-GW");
    });
    await page.getByRole("button", { name: "Preview sync" }).click();
    await expectText(page.locator("#preview-counts"), `1 to send, 0 invalid (will not be sent), ${approved.length - 1} unchanged.`);
    await page.getByRole("button", { name: "Confirm and sync" }).click();
    await expectText(page.locator("#sync-status"), "1 applied.");
    expect(f.sandbox.store.expense(sub, first.id)).toMatchObject({ state: "paid", paid_id: "PAY-GW" });
    await page.screenshot({ path: join(OUT, "gateway-synced.png") });

    // What crossed the gateway, from the add-in's origin: GETs, then the PATCH, preceded by the browser's preflight.
    const entries = logged().filter((e) => e.origin === addin.origin);
    const patchPath = `${f.prefix}/subsidiaries/${sub}/expenses/${first.id}/`;
    const preflight = entries.findIndex((e) => e.method === "OPTIONS" && e.path === patchPath);
    const patch = entries.findIndex((e) => e.method === "PATCH" && e.path === patchPath);
    expect(entries[preflight]).toMatchObject({ status: 204 });
    expect(entries[patch]).toMatchObject({ status: 200 });
    expect(preflight).toBeLessThan(patch);
    expect(entries.filter((e) => e.method === "GET").every((e) => e.status === 200)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("refuses a page of another origin at the preflight: its fetch fails, the gateway logged a 403, nothing reached the service", async () => {
    const sub = f.enterprise.subsidiaries[0];
    const target = f.sandbox.store.expensesOf(sub).find((e) => e.state === "approved")!;
    const patchUrl = `${gateway.baseUrl}${f.prefix}/subsidiaries/${sub}/expenses/${target.id}/`;
    const { page } = await openTaskpane(elsewhere.origin);
    const before = logLines.length;

    // The same production taskpane, hosted elsewhere, cannot connect through this gateway.
    await connect(page);
    expect(await page.locator("#connect-status").getAttribute("class")).toBe("error");

    // A script on that page tries the PATCH itself.
    const outcome = await page.evaluate(async ({ url, key }) => {
      try {
        const res = await fetch(url, { method: "PATCH", headers: { Authorization: `Api-Key ${key}`, "Content-Type": "application/json" }, body: JSON.stringify({ state: "paid", paid_id: "STOLEN" }) });
        return `answered ${res.status}`;
      } catch (error) {
        return `failed: ${(error as Error).name}`;
      }
    }, { url: patchUrl, key: f.enterprise.api_key });
    expect(outcome).toBe("failed: TypeError");
    expect(f.sandbox.store.expense(sub, target.id)).toMatchObject({ state: "approved" });
    expect(f.sandbox.store.transitionsOf(target.id)).toHaveLength(0);

    const fromElsewhere = logged().slice(before).filter((e) => e.origin === elsewhere.origin);
    expect(fromElsewhere.length).toBeGreaterThanOrEqual(2);
    expect(fromElsewhere.every((e) => e.method === "OPTIONS" && e.status === 403)).toBe(true);
    expect(fromElsewhere.map((e) => e.path)).toContain(new URL(patchUrl).pathname);
    await page.close();
  });

  it("no gateway log line contains the key", () => {
    expect(logLines.length).toBeGreaterThan(5);
    for (const line of logLines) expect(line).not.toContain(f.enterprise.api_key);
  });
});

interface StubWindow {
  spendStub: { type(table: string, header: string, row: number, value: string): void; read(table: string, header: string, row: number): unknown };
}
