// Lint rules, plus the layer rule of DESIGN.md: imports point down only.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Forbid imports of the named sibling layers from files of one layer. */
function layer(files, forbidden) {
  return {
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: forbidden.map((name) => ({
            group: [`**/${name}`, `**/${name}/**`],
            message: `This layer may not import ${name}/ (see DESIGN.md: imports point down only).`,
          })),
        },
      ],
    },
  };
}

const hosts = ["functions", "commands", "taskpane", "workbench"];

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "dist-tsc/", "coverage/", "test-output/"] },
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
  layer(["src/domain/**"], ["api", "sheets", "sync", "sandbox", ...hosts]),
  layer(["src/sandbox/**"], ["api", "sheets", "sync", ...hosts]),
  layer(["src/api/**"], ["sheets", "sync", "sandbox", ...hosts]),
  layer(["src/sheets/**"], ["sync", "sandbox", ...hosts]),
  layer(["src/sync/**"], ["sandbox", ...hosts]),
  // Hosts stand side by side: each wires the layers below to Office or a page, and none reaches the sandbox's code.
  ...hosts.map((host) => layer([`src/${host}/**`], ["sandbox", ...hosts.filter((h) => h !== host && !(host === "workbench"))])),
);
