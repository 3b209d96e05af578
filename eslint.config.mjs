// Lint rules, plus the layer rule of DESIGN.md: imports point down only.
import js from "@eslint/js";
import officeAddins from "eslint-plugin-office-addins";
import tseslint from "typescript-eslint";

/** Forbid imports of the named sibling layers from files of one layer (and any `extra` import patterns). */
function layer(files, forbidden, extra = []) {
  return {
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...forbidden.map((name) => ({
              group: [`**/${name}`, `**/${name}/**`],
              message: `This layer may not import ${name}/ (see DESIGN.md: imports point down only).`,
            })),
            ...extra,
          ],
        },
      ],
    },
  };
}

const hosts = ["functions", "commands", "taskpane", "workbench"];
// The folders and root files of src/sheets/ above its port (port/) and beside its Excel adapter (excel/).
const sheetsAbovePort = ["load", "refresh", "edits", "card-close", "import", "reconciliation", "spill", "resources", "columns", "money-formats", "render", "stored-tables", "sheets"];

// The gateway imports nothing of the add-in or the sandbox (DESIGN.md), not even the root modules of src/.
const notGateway = ["domain", "api", "sheets", "sync", "sandbox", ...hosts, "shared-runtime", "requirements", "guarded-storage"];
// Its fetch handler runs on Cloudflare Workers: web-standard APIs only. Only the Node entries may use node:.
const gatewayNodeEntries = ["src/gateway/cli.ts", "src/gateway/node-*.ts", "src/gateway/lambda.ts", "src/gateway/team/databases.ts"];
const webStandardOnly = { group: ["node:*"], message: "The gateway's handler runs on Workers too: web-standard APIs only (Node modules belong in cli.ts / node-server.ts)." };
// ... and it imports nothing but its own files and hono, and touches no Node global.
// (Team mode's files, in team/, also import the gateway's own (../x) and jose, which runs on Workers too.)
const ownFilesAndHono = { regex: "^(?!\\.\\.?/([a-z-]+/)?[a-z-]+$|hono(/[a-z-]+)?$|jose$)", message: "The gateway's handler imports only its own files (./x, ../x), hono and jose: it runs on Workers too." };
const nodeGlobals = ["Buffer", "process", "require", "__dirname", "__filename", "global", "setImmediate"].map((name) => ({
  name, message: "The gateway's handler runs on Workers too: web-standard APIs only (Node belongs in cli.ts / node-server.ts / lambda.ts).",
}));

/**
 * Microsoft's Office.js rules (eslint-plugin-office-addins, what the yo office templates lint with): load before
 * read, sync before read, no context.sync() in loops, isNullObject tests.
 * https://learn.microsoft.com/office/dev/add-ins/overview/set-up-your-dev-environment#install-and-use-the-office-javascript-linter
 * That page spreads `...officeAddins.configs.recommended` next to typescript-eslint's; here that fails with
 * "Cannot redefine plugin @typescript-eslint" (the plugin brings its own typescript-eslint ~8.8), and it would
 * also add Prettier as an error and `ecmaVersion: 6`. So only its rules are wired, at the severities of its
 * recommended config (read from that config, so an update of the plugin carries over).
 */
const officeAddinsRecommended = Object.fromEntries(
  officeAddins.configs.recommended
    .flatMap((config) => Object.entries(config.rules ?? {}))
    .filter(([rule]) => rule.startsWith("office-addins/")),
);

/**
 * Everything src/ throws on purpose is of a class that says what it is (api/errors.ts's family, sheets'
 * WorkbookError, the gateway's and the sandbox's own), so the taskpane and the functions can tell errors apart.
 */
const NO_NEVER_CAST = {
  selector: "TSAsExpression > TSNeverKeyword.typeAnnotation, TSAsExpression > .typeAnnotation TSNeverKeyword",
  message: "No cast to never: type the value (a resource's module in src/sheets/resources pairs its columns and records; a schema parses a form).",
};
const BARE_ERROR = {
  selector: "ThrowStatement > NewExpression[callee.name=/^(Error|TypeError|RangeError)$/]",
  message: "Throw an error of a class that says what it is (src/api/errors.ts, src/sheets/port/workbook-errors.ts, or the layer's own), not a bare Error, TypeError or RangeError (issue 44: they bypass the error table).",
};

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "dist-tsc/", "coverage/", "test-output/", "reports/", ".stryker-tmp/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", process: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  { files: ["**/*.ts"], plugins: { "office-addins": officeAddins }, rules: officeAddinsRecommended },
  {
    // The plugin's rules only see a request context named `context` (node_modules/eslint-plugin-office-addins/lib/utils/utils.js,
    // isContextSyncIdentifier): with `ctx`, `await ctx.sync()` is not a sync to them, so every read after it is
    // flagged and, worse, a sync inside a loop goes unseen. Name the Excel.run callback's parameter `context`.
    files: ["src/**/*.ts"],
    ignores: ["src/workbench/**", "src/sandbox/**"],
    rules: {
      "no-restricted-syntax": ["error", {
        selector: "CallExpression[callee.property.name='run'] > :function > Identifier.params:not([name='context'])",
        message: "Name the request context `context`: eslint-plugin-office-addins only checks loads and syncs on that name.",
      }, BARE_ERROR, NO_NEVER_CAST],
    },
  },
  {
    // The same rule's other half where the context rule does not apply (one block per file: options are not merged).
    files: ["src/workbench/**/*.ts", "src/sandbox/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", BARE_ERROR, NO_NEVER_CAST] },
  },
  {
    // Small files and functions a newcomer can read whole (issue 28): counted as eslint counts, every line.
    files: ["src/**/*.ts"],
    rules: { "max-lines": ["error", 300], "max-lines-per-function": ["error", 80] },
  },
  {
    // These tests read properties before load()/sync() on purpose, to prove the in-memory Excel throws
    // PropertyNotLoaded as Excel does; the read-order rules would flag exactly what they test.
    files: ["test/workbench/**"],
    rules: {
      "office-addins/call-sync-before-read": "off",
      "office-addins/call-sync-after-load": "off",
      "office-addins/load-object-before-read": "off",
    },
  },
  {
    // One sync per chunk is the point here: Excel on the web refuses a request or a response over 5 MB, and
    // Microsoft's advice for large ranges is to split them across syncs
    // (learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization). The
    // chunks are sized by bytes, so the number of syncs grows with the data's size, not with its rows.
    files: ["src/sheets/excel/write-rows.ts", "src/sheets/excel/cell-writes.ts", "src/sheets/excel/read.ts", "src/sheets/excel/table-reads.ts"],
    rules: { "office-addins/no-context-sync-in-loop": "off" },
  },
  {
    // Excel passes custom functions arguments of any type (text, numbers, dates as serials, empty cells),
    // and custom-functions-metadata reads the `any` of each parameter as the metadata type "any"
    // (`unknown` is not a type it maps). Each argument is checked in args.ts.
    files: ["src/functions/functions.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  layer(["src/domain/**"], ["api", "sheets", "sync", "sandbox", ...hosts]),
  layer(["src/sandbox/**"], ["api", "sheets", "sync", ...hosts]),
  layer(["src/api/**"], ["sheets", "sync", "sandbox", ...hosts]),
  // sheets/ stands on its port (port/: the Workbook interface, its errors and the cell values both sides agree on).
  // The Excel adapter (excel/) implements the port and imports nothing else of sheets/; the rest of sheets/
  // (load/, refresh/, edits/…) works through the port and never imports the adapter, which only the hosts wire in
  // (issue 44: no import crosses excel/ either way but adapter -> port).
  { ...layer(["src/sheets/**"], ["excel", "sync", "sandbox", ...hosts]), ignores: ["src/sheets/excel/**", "src/sheets/port/**"] },
  layer(["src/sheets/excel/**"], [...sheetsAbovePort, "sync", "sandbox", ...hosts]),
  layer(["src/sheets/port/**"], ["excel", ...sheetsAbovePort, "sync", "sandbox", ...hosts]),
  layer(["src/sync/**"], ["sandbox", ...hosts]),
  // Hosts stand side by side: each wires the layers below to Office or a page, and none reaches the sandbox's code.
  ...hosts.map((host) => layer([`src/${host}/**`], ["sandbox", ...hosts.filter((h) => h !== host && !(host === "workbench"))])),
  layer(gatewayNodeEntries, notGateway),
  { ...layer(["src/gateway/**"], notGateway, [webStandardOnly, ownFilesAndHono]), ignores: gatewayNodeEntries },
  { files: ["src/gateway/**"], ignores: gatewayNodeEntries, rules: { "no-restricted-globals": ["error", ...nodeGlobals] } },
);
