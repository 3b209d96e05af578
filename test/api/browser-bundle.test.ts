/**
 * src/api must run in the Office webview: webpack builds it for the web with no Node built-ins, and the
 * bundle then works in a context that has only browser globals (no require, no process, no Buffer).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import webpack from "webpack";
import { withSandbox } from "../support/sandbox";
import { ROOT } from "../support/process";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, "webpack.config.js"));

// A webpack build of src/api: a minute on a busy 2-core machine.
jest.setTimeout(180_000);

async function build(outDir: string): Promise<webpack.Stats> {
  process.env.ADDIN_URL ??= "https://spendsync.example.com/";
  const base = await config({}, { mode: "production" });
  const options = { ...base, context: ROOT, devtool: false, plugins: [] };
  // src/api alone, as a library (no page loads it: this build is the test's own).
  options.entry = { "spend-api": { import: "./src/api/index.ts", library: { name: "SpendApi", type: "umd" } } };
  options.output = { ...options.output, path: outDir };
  return new Promise<webpack.Stats>((resolve, reject) => {
    webpack(options, (error, stats) => (error ? reject(error) : resolve(stats!)));
  });
}

it("builds for the web and loads expenses from the sandbox with browser globals only", async () => {
  const out = mkdtempSync(join(tmpdir(), "spend-bundle-"));
  const stats = await build(out);
  expect(stats.hasErrors() ? stats.toString({ all: false, errors: true }) : "").toBe("");
  const code = readFileSync(join(out, "spend-api.js"), "utf8");

  const f = await withSandbox();
  try {
    const browser: Record<string, unknown> = {
      fetch, URL, URLSearchParams, AbortController, AbortSignal, Headers, setTimeout, clearTimeout, console, Promise,
      DOMException, TextEncoder, TextDecoder, performance, btoa, atob,
    };
    browser.self = browser;
    browser.window = browser;
    runInNewContext(code, browser);
    const api = browser.SpendApi as typeof import("../../src/api");
    expect(typeof api.SpendClient).toBe("function");
    const client = new api.SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    const expenses = await api.listExpenses(client, f.enterprise.subsidiaries[0], { state: "approved" }).all();
    expect(expenses.length).toBe(f.sandbox.store.expensesOf(f.enterprise.subsidiaries[0]).filter((e) => e.state === "approved").length);
  } finally {
    await f.sandbox.close();
  }
});
