/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  // Integration tests start real servers on loopback; give a shared, noisy machine room.
  testTimeout: 30000,
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
};
