/**
 * `npm run build` ships only the add-in: no workbench page, no in-memory Excel, no sandbox, no source maps
 * (dist/ is served on the add-in's origin, where the key is stored). One real production build, the one the
 * gateway's browser test serves (test/support/production-build.ts: built once for both, its chunks and modules
 * kept beside it); the leak check is then shown to catch planted leaks on small inputs and one tiny compile.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import webpack from "webpack";
import { declaredParameters } from "../../tools/functions-parameters";
import { ROOT } from "../support/process";
import { productionBuild, productionBuildChunks, type BuiltChunk } from "../support/production-build";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, "webpack.config.js"));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ProductionLeakCheck, findProductionLeaks } = require("../../tools/production-leak-check.js");

jest.setTimeout(300_000);

/**
 * Bytes per entry, gzip -9, about 10% above what it weighed when set (2026-11-29: functions.js 78,403,
 * taskpane.js 21,501). Raise one only with a reason in the commit: the webview downloads and parses all of it
 * before the first =SPEND formula answers.
 */
// (Raised on 2026-11-29 with the Card close, import and team sections and the parameter declarations: 98,924 and
// 32,112 bytes measured; the sign-in window's MSAL is a file of its own, loaded only where Office has no single sign-on.)
// (2026-11-29, issue 44: src/functions imports narrow sheets modules, not the barrel, so functions.js holds what the
// functions use: 63,853 bytes measured (was 98,645); the taskpane's own modules moved to taskpane.js, 65,734 (was
// 32,093): the page loads both, 1,151 bytes fewer in all. sign-in-done.js, the window's way back (MSAL's redirect
// bridge), 2,809 bytes measured.)
// (2026-11-29, issue 46: Preview from Excel's change events (sheets/excel/edit-marks.ts, sync/marked-reads.ts) and
// the self-test's three change-event checks: taskpane.js 69,649 bytes measured, functions.js 64,059.)
const GZIP_BUDGET: Record<string, number> = { "functions.js": 66_000, "taskpane.js": 72_000, "msal-sign-in.js": 75_000, "sign-in-done.js": 3_100 };

function compile(options: webpack.Configuration): Promise<webpack.Stats> {
  return new Promise((resolve, reject) => webpack(options, (error, stats) => (error ? reject(error) : resolve(stats!))));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => relative(dir, join(d.parentPath, d.name)));
}

describe("the production build", () => {
  let dist: string;
  let chunks: BuiltChunk[];

  // The users' build the gateway's browser test serves (built once for both: test/support/production-build.ts).
  beforeAll(async () => {
    dist = await productionBuild(false);
    chunks = productionBuildChunks(dist);
  });

  it("npm run build refuses without ADDIN_URL, saying what to set, rather than write a manifest for a made-up host (issue 43)", async () => {
    const set = process.env.ADDIN_URL;
    delete process.env.ADDIN_URL;
    try {
      // webpack-cli's `webpack build` (what npm run build runs) passes WEBPACK_BUILD.
      await expect(config({ WEBPACK_BUILD: true }, { mode: "production" })).rejects.toThrow(
        "Set ADDIN_URL to the https address dist/ will be served from, e.g. ADDIN_URL=https://addin.example.com/ npm run build (docs/deploy.md). Nothing was built.");
      // The development server, the browser tests' workbench build and a config read by a tool are never hosted.
      await expect(config({ WEBPACK_BUILD: true }, { mode: "development" })).resolves.toBeDefined();
      await expect(config({ WEBPACK_BUILD: true, workbench: true }, { mode: "production" })).resolves.toBeDefined();
      await expect(config({}, { mode: "production" })).resolves.toBeDefined();
    } finally {
      process.env.ADDIN_URL = set;
    }
  });

  it("succeeds with the leak check in place", async () => {
    // productionBuild refuses (with webpack's errors) a build that has any; it is made from this configuration.
    expect(chunks.length).toBeGreaterThan(0);
    expect((await config({}, { mode: "production" })).plugins.some((p: unknown) => p instanceof ProductionLeakCheck)).toBe(true);
  });

  it("emits a functions.json that allows data types and declares every function a matrix, as each returns a grid", () => {
    const metadata = JSON.parse(readFileSync(join(dist, "functions.json"), "utf8"));
    expect(metadata.allowCustomDataForDataTypeAny).toBe(true);
    expect(metadata.functions.map((fn: { id: string; result: { dimensionality?: string } }) => [fn.id, fn.result.dimensionality])).toEqual(
      ["CARDS", "MOVEMENTS", "ALLOWANCES", "EXPENSES", "CARD", "ALLOWANCE", "EXPENSE"].map((id) => [id, "matrix"]));
  });

  it("emits each list function's parameters as its resource declares them, never the JSDoc's ...args (issue 44)", () => {
    const metadata = JSON.parse(readFileSync(join(dist, "functions.json"), "utf8")) as { functions: { id: string; parameters: { name: string }[] }[] };
    const told = metadata.functions.filter((fn) => declaredParameters().some((d) => d.id === fn.id));
    expect(Object.fromEntries(told.map((fn) => [fn.id, fn.parameters]))).toEqual(Object.fromEntries(declaredParameters().map((d) => [d.id, d.parameters])));
    expect(told).toHaveLength(4);
    expect(told.find((fn) => fn.id === "EXPENSES")!.parameters.map((p) => p.name)).toEqual(["subsidiary_id", "state", "created_from", "created_to", "expand"]);
  });

  it("emits the add-in and nothing of the workbench, the sandbox or source maps", () => {
    const files = filesUnder(dist);
    expect(files).toEqual(expect.arrayContaining(["taskpane.html", "taskpane.js", "functions.js", "functions.json", "manifest.xml", "taskpane.css"]));
    expect(files.filter((f) => /workbench|sandbox|fake-excel|\.map$/i.test(f))).toEqual([]);
    for (const file of files.filter((f) => /\.(js|html|css)$/.test(f))) {
      expect(readFileSync(join(dist, file), "utf8")).not.toMatch(/sourceMappingURL/);
    }
  });

  // Issue 43: a bundle nothing loaded (spend-api.js) and the functions' code twice (in taskpane.js and functions.js).
  it("ships only what Office loads (functions.js from the manifest, functions.js then taskpane.js from the page, MSAL only on demand), each module once", () => {
    expect(filesUnder(dist).filter((f) => f.endsWith(".js")).sort()).toEqual(["functions.js", "msal-sign-in.js", "sign-in-done.js", "taskpane.js"]);
    const page = readFileSync(join(dist, "taskpane.html"), "utf8");
    expect([...page.matchAll(/<script[^>]*src=["']?([^"' >]+)/g)].map((m) => m[1])).toEqual(
      ["https://appsforoffice.microsoft.com/lib/1/hosted/office.js", "functions.js", "taskpane.js"]);
    expect(readFileSync(join(dist, "manifest.xml"), "utf8")).toContain('<bt:Url id="Functions.Script.Url" DefaultValue="https://spendsync.example.com/functions.js"/>');
    // Each module once per page: the taskpane's page loads functions.js, taskpane.js and, on demand, MSAL; the
    // sign-in window's way back (sign-in-done.html) is a page of its own, which loads sign-in-done.js alone, so
    // the MSAL modules it shares with msal-sign-in.js are never loaded twice in one page.
    const PAGES = [["functions", "taskpane", "msal-sign-in"], ["sign-in-done"]];
    expect(PAGES.flat().sort()).toEqual(chunks.map((c) => c.name).sort());
    for (const page of PAGES) {
      const seen = new Map<string, string>();
      const twice: string[] = [];
      for (const chunk of chunks.filter((c) => page.includes(c.name))) {
        for (const { resource } of chunk.modules) {
          if (seen.has(resource)) twice.push(`${resource} in ${seen.get(resource)} and ${chunk.name}`);
          seen.set(resource, chunk.name);
        }
      }
      expect(seen.size).toBeGreaterThan(page.length > 1 ? 100 : 10); // the listing is real
      expect(twice).toEqual([]);
    }
  });

  it("keeps each entry within its size budget, gzipped (docs/deploy.md)", () => {
    const gzipped = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    const sizes = Object.fromEntries(Object.keys(GZIP_BUDGET).map((file) => [file, gzipped(file)]));
    const over = Object.entries(sizes).filter(([file, size]) => size > GZIP_BUDGET[file]).map(([file, size]) => `${file}: ${size} bytes gzipped, budget ${GZIP_BUDGET[file]}`);
    expect(over).toEqual([]);
  });

  it("bundles no module of src/workbench, src/sandbox or test, and no HyperFormula (GPL-3.0: the in-memory Excel's engine, dev only)", () => {
    const names = chunks.flatMap((c) => c.modules.map((m) => m.name));
    expect(names.some((n) => n.includes("src/api/"))).toBe(true); // the listing is real
    expect(names.filter((n) => /src\/(workbench|sandbox)\/|(^|\/)test\/|node_modules\/hyperformula\//.test(n))).toEqual([]);
  });
});

describe("the leak check", () => {
  it("finds each kind of planted leak, and nothing in a clean build", () => {
    const clean = { assets: [{ name: "taskpane.js", source: "console.log(1)" }, { name: "assets/icon-16.png", source: "" }], modules: [join(ROOT, "src/api/client.ts")] };
    expect(findProductionLeaks(clean)).toEqual([]);
    const planted = findProductionLeaks({
      assets: [
        { name: "workbench.html", source: "<html>" },
        { name: "workbench.css", source: "" },
        { name: "taskpane.js.map", source: "{}" },
        { name: "functions.js", source: "f();\n//# sourceMappingURL=functions.js.map" },
        { name: "office-js/excel-web-16.00.js", source: "var Excel;" },
      ],
      modules: [
        join(ROOT, "src/workbench/fake-excel/index.ts"), join(ROOT, "src/sandbox/app.ts"), join(ROOT, "test/support/excel.ts"), join(ROOT, "node_modules/x/test/y.js"),
        join(ROOT, "node_modules/@microsoft/office-js/dist/excel-web-16.00.js"),
      ],
    });
    const asset = "a development file (workbench, sandbox, fake Excel, the npm copy of Office.js or source map) in a production build";
    const module = "workbench, sandbox, test code or the npm copy of Office.js bundled into a production build";
    expect(planted).toEqual([
      `workbench.html: ${asset}`,
      `workbench.css: ${asset}`,
      `taskpane.js.map: ${asset}`,
      "functions.js: points at a source map",
      `office-js/excel-web-16.00.js: ${asset}`,
      `${join(ROOT, "src/workbench/fake-excel/index.ts")}: ${module}`,
      `${join(ROOT, "src/sandbox/app.ts")}: ${module}`,
      `${join(ROOT, "test/support/excel.ts")}: ${module}`,
      `${join(ROOT, "node_modules/@microsoft/office-js/dist/excel-web-16.00.js")}: ${module}`,
    ]);
  });

  it("fails a real compile that bundles the fake Excel or emits a source map", async () => {
    const dir = mkdtempSync(join(tmpdir(), "spend-leak-"));
    const entry = join(dir, "entry.js");
    writeFileSync(entry, `import { columnLetters } from ${JSON.stringify(join(ROOT, "src/workbench/fake-excel/address.ts"))};\nconsole.log(columnLetters(3));\n`);
    const options = await config({}, { mode: "production" });
    const stats = await compile({
      ...options, context: ROOT, entry: { leak: entry }, devtool: "source-map", output: { path: join(dir, "out"), filename: "[name].js" },
      plugins: [new ProductionLeakCheck()],
    });
    const errors = stats.toJson({ all: false, errors: true }).errors!.map((e) => e.message);
    expect(errors).toEqual(expect.arrayContaining([
      expect.stringContaining("ProductionLeakCheck: leak.js.map: a development file"),
      expect.stringContaining("ProductionLeakCheck: leak.js: points at a source map"),
      expect.stringMatching(/ProductionLeakCheck: .*src\/workbench\/fake-excel\/address\.ts: workbench, sandbox, test code/),
    ]));
  });
});
