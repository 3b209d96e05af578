/**
 * jest's environment for `npm run mutate` (tools/mutate.ts): the suite's own (test/support/office-js-environment.js)
 * that stops a mutant's run at its first failing test. StrykerJS runs every test that covered a mutant, even
 * after one has killed it (jest's bail cannot be used from runCLI, which Stryker calls); a killed mutant needs
 * one failure and nothing more. After a failure, the rest of that mutant's tests are skipped, in this file and
 * in the files after it (with their beforeAll hooks). The verdict is the same: Stryker counts a mutant killed
 * when any test fails, and a skipped test never fails. The dry run (no active mutant) runs everything.
 */
const OfficeJsEnvironment = require("../test/support/office-js-environment.js");

const ACTIVE_MUTANT = "__STRYKER_ACTIVE_MUTANT__";
/** The mutant whose run has seen a failing test; lives as long as Stryker's test runner process. */
let killed;

class MutationEnvironment extends OfficeJsEnvironment {
  async handleTestEvent(event, state) {
    await super.handleTestEvent?.(event, state);
    const mutant = process.env[ACTIVE_MUTANT];
    if (mutant === undefined) return;
    if (event.name === "test_done" && event.test.errors.length > 0) killed = mutant;
    if (killed !== mutant) return;
    if (event.name === "run_describe_start") event.describeBlock.mode = "skip";
    if (event.name === "test_start") event.test.mode = "skip";
  }
}

module.exports = MutationEnvironment;
