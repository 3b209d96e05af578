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

async function build(outDir: string): Promise<webpack.Stats> {
  const base = await config({}, { mode: "production" });
  const options = { ...base, context: ROOT, devtool: false, plugins: [] };
  options.entry = { "spend-api": base.entry["spend-api"] };
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
