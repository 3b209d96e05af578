/**
 * The two pieces `npm run mutate` adds to jest (tools/mutation-sequencer.js, tools/mutation-environment.js): a
 * mutant's run loads only the files holding a test that covered it, fastest first, and stops at the first
 * failing test. Neither may change a verdict: a file with a covering test is always loaded, a file never seen
 * is loaded, and only the run of the mutant that failed skips anything.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the tools are CommonJS files jest loads by path
const Sequencer = require("../../tools/mutation-sequencer.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const Environment = require("../../tools/mutation-environment.js");

type Test = { path: string; duration?: number; context: { config: { cacheDirectory: string; id: string }; hasteFS: { getSize: (p: string) => number } } };

const sizes: Record<string, number> = { "/t/a.test.ts": 300, "/t/b.test.ts": 100, "/t/c.test.ts": 200, "/t/new.test.ts": 50 };
const context = { config: { cacheDirectory: "/nonexistent-jest-cache", id: "mutation-runner-test" }, hasteFS: { getSize: (p: string) => sizes[p] } };
const tests = (): Test[] => Object.keys(sizes).map((path) => ({ path, context }));
const result = (path: string, names: string[], failed = false) => ({
  testFilePath: path, numFailingTests: failed ? 1 : 0, perfStats: { runtime: 0 }, skipped: false,
  testResults: names.map((fullName) => ({ fullName, status: "passed" })),
});
const sequencer = (testNamePattern?: string) => {
  const s = new Sequencer({ contexts: [context], globalConfig: { testNamePattern } });
  // No cache file on disk: durations and failures are what the test gives.
  s._getCache = () => ({});
  return s;
};

describe("mutation-sequencer", () => {
  beforeAll(() => {
    // A first run reports every test of the three files it loaded (run or skipped); new.test.ts was not loaded.
    const first = sequencer();
    first.cacheResults(tests(), { testResults: [
      result("/t/a.test.ts", ["args optionalDate takes a serial", "args optionalBoolean takes TRUE"]),
      result("/t/b.test.ts", ["errors a missing record is #N/A"]),
      result("/t/c.test.ts", ["runtime callKey differs (a|b)"]),
    ] });
  });

  it("loads the files holding a covering test and the files never seen, and no other", () => {
    const paths = sequencer("(args optionalBoolean takes TRUE)").sort(tests()).map((t: Test) => t.path);
    expect(paths.sort()).toEqual(["/t/a.test.ts", "/t/new.test.ts"]);
    // The pattern is a regular expression over full names, as jest reads it (escaped by Stryker).
    expect(sequencer("(runtime callKey differs \\(a\\|b\\))").sort(tests()).map((t: Test) => t.path).sort()).toEqual(["/t/c.test.ts", "/t/new.test.ts"]);
  });

  it("loads everything without a pattern (the dry run, a static mutant)", () => {
    expect(sequencer().sort(tests())).toHaveLength(4);
  });

  it("loads everything rather than nothing when no file holds a match", () => {
    const onlyKnown = tests().filter((t) => t.path !== "/t/new.test.ts");
    expect(sequencer("(no such test)").sort(onlyKnown)).toHaveLength(3);
  });

  it("orders a file that failed last first, then the fastest, then unknown times by size", () => {
    const s = sequencer();
    const times: Record<string, number | undefined> = { "/t/a.test.ts": 50, "/t/b.test.ts": 900, "/t/c.test.ts": 10 };
    s.time = (t: Test) => times[t.path];
    s.hasFailed = (t: Test) => t.path === "/t/b.test.ts";
    expect(s.sort(tests()).map((t: Test) => t.path)).toEqual(["/t/b.test.ts", "/t/c.test.ts", "/t/a.test.ts", "/t/new.test.ts"]);
    s.hasFailed = () => false;
    times["/t/c.test.ts"] = undefined;
    expect(s.sort(tests()).map((t: Test) => t.path)).toEqual(["/t/a.test.ts", "/t/b.test.ts", "/t/new.test.ts", "/t/c.test.ts"]);
  });
});

describe("mutation-environment", () => {
  const handle = (event: object) => Environment.prototype.handleTestEvent.call({}, event, {});
  const test = (errors: unknown[] = []) => ({ errors, mode: undefined as string | undefined });
  afterEach(() => delete process.env.__STRYKER_ACTIVE_MUTANT__);

  it("after a failing test, skips the rest of that mutant's tests and describe blocks, and nothing of the next mutant's", async () => {
    process.env.__STRYKER_ACTIVE_MUTANT__ = "7";
    const before = test();
    await handle({ name: "test_start", test: before });
    expect(before.mode).toBeUndefined();
    await handle({ name: "test_done", test: test([new Error("expected 1, got 2")]) });
    const later = test();
    const block = { mode: undefined as string | undefined };
    await handle({ name: "test_start", test: later });
    await handle({ name: "run_describe_start", describeBlock: block });
    expect([later.mode, block.mode]).toEqual(["skip", "skip"]);

    process.env.__STRYKER_ACTIVE_MUTANT__ = "8";
    const next = test();
    const nextBlock = { mode: undefined as string | undefined };
    await handle({ name: "test_start", test: next });
    await handle({ name: "run_describe_start", describeBlock: nextBlock });
    expect([next.mode, nextBlock.mode]).toEqual([undefined, undefined]);
  });

  it("a passing test skips nothing, and without an active mutant (the dry run) a failure skips nothing", async () => {
    process.env.__STRYKER_ACTIVE_MUTANT__ = "9";
    await handle({ name: "test_done", test: test() });
    const after = test();
    await handle({ name: "test_start", test: after });
    expect(after.mode).toBeUndefined();
    delete process.env.__STRYKER_ACTIVE_MUTANT__;
    await handle({ name: "test_done", test: test([new Error("x")]) });
    const dry = test();
    await handle({ name: "test_start", test: dry });
    expect(dry.mode).toBeUndefined();
  });
});
