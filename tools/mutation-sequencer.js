/**
 * jest's test order and selection for `npm run mutate` (tools/mutate.ts). StrykerJS runs each mutant as one jest
 * run in a long-lived worker, with a test name pattern naming the tests that covered it; jest would still load
 * every related test file (its environment, Office.js and all its imports) only to skip its tests.
 * - Selection: a file none of whose tests matches the pattern is not loaded. The names come from the runs
 *   themselves (the first run of a worker loads every file and reports every test, run or skipped); a file not
 *   yet seen is always loaded, and a run without a pattern (a static mutant, the dry run) loads everything.
 * - Order: a file that failed in the last run first (it killed the previous mutant, which sits next to this
 *   one), then the fastest files first: Stryker stops at a mutant's first failing test, so a mutant a quick
 *   file kills never waits for a slow one. Files without a recorded time go by size, smallest first.
 * Leaving out a file whose tests all would be skipped changes no verdict: a skipped test cannot fail.
 */
const Sequencer = require("@jest/test-sequencer").default;

/** Test file -> the full names of its tests, as jest reported them (run or skipped). Lives as long as the worker. */
const namesOf = new Map();

class MutationSequencer extends Sequencer {
  constructor(options) {
    super(options);
    const pattern = options?.globalConfig?.testNamePattern;
    this.pattern = pattern ? new RegExp(pattern, "i") : null;
  }

  /** Whether jest must load `test` for this run. */
  needed(test) {
    const names = namesOf.get(test.path);
    return this.pattern === null || names === undefined || names.some((name) => this.pattern.test(name));
  }

  sort(tests) {
    const size = new Map();
    const sizeOf = (test) => {
      if (!size.has(test.path)) size.set(test.path, test.context.hasteFS.getSize(test.path) ?? 0);
      return size.get(test.path);
    };
    const selected = tests.filter((test) => this.needed(test));
    const chosen = selected.length > 0 ? selected : tests;
    for (const test of chosen) test.duration = this.time(test);
    return [...chosen].sort((a, b) => {
      const failedA = this.hasFailed(a);
      const failedB = this.hasFailed(b);
      if (failedA !== failedB) return failedA ? -1 : 1;
      if ((a.duration == null) !== (b.duration == null)) return a.duration == null ? 1 : -1;
      if (a.duration != null && b.duration != null && a.duration !== b.duration) return a.duration - b.duration;
      return sizeOf(a) - sizeOf(b) || (a.path < b.path ? -1 : 1);
    });
  }

  cacheResults(tests, results) {
    for (const file of results.testResults) {
      // A file that failed to load reports no tests: it is loaded again next time.
      if (file.testExecError || file.testResults.length === 0) continue;
      namesOf.set(file.testFilePath, file.testResults.map((t) => t.fullName));
    }
    return super.cacheResults(tests, results);
  }
}

module.exports = MutationSequencer;
