/** @type {import('jest').Config} */
module.exports = {
  // Node's, with Microsoft's Office.js client run in every test file's realm (the in-memory Excel answers its requests).
  testEnvironment: "<rootDir>/test/support/office-js-environment.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // ts-jest, with the realm's builtins bound per module: a global lookup in jest's vm realm is slow (the file says more).
    "^.+\\.ts$": ["<rootDir>/test/support/realm-builtins-transform.js", { tsconfig: "tsconfig.json", diagnostics: false }],
    // jose ships ES modules only, which Jest on Node 20 cannot require: compiled to CommonJS for the tests.
    "/node_modules/jose/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true, module: "commonjs", target: "ES2022" }, diagnostics: false }],
    // PGlite's CommonJS build loads Node's modules with import(), which Jest cannot run (the file says more).
    "/node_modules/@electric-sql/pglite/.+\\.cjs$": "<rootDir>/test/support/dynamic-import-transform.js",
  },
  transformIgnorePatterns: ["/node_modules/(?!jose/|@electric-sql/pglite/)"],
  // Integration tests start real servers on loopback; give a shared, noisy machine room.
  testTimeout: 30000,
  setupFiles: ["<rootDir>/test/support/office-js.ts"],
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
};
