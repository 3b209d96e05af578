// StrykerJS's settings for `npm run mutate -- <folder>` (tools/mutate.ts adds what to mutate, the tests that
// reach it and where its reports go). docs/testing.md says how to run it and read its reports.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "jest",
  jest: { projectType: "custom", configFile: "jest.config.js" },
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.mutate.json",
  // Each mutant runs only the tests that covered it in the first run.
  coverageAnalysis: "perTest",
  // The machine is shared (2 cores): one jest at a time.
  concurrency: 1,
  // jest keeps a little of every run it is asked for; a worker restarted every 60 mutants never runs out of memory
  // (without this one ran out after about 130 of src/functions's).
  maxTestRunnerReuse: 60,
  incremental: true,
  reporters: ["html", "json", "progress", "clear-text"],
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  timeoutMS: 10000,
  tempDirName: ".stryker-tmp",
  ignorePatterns: ["dist", "dist-tsc", "coverage", "test-output", "reports", "tools/mutation-state", ".spend-data", "*.log"],
  cleanTempDir: true,
};
