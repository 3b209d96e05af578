// Rule: npm start echoes the flags it passes to the sandbox and says when they inject faults; a sandbox or dev
// server that ends while it runs is named with how it ended and what that means (issue 43).
import { deathSentence, flagsSentence } from "../../tools/start-report";

const FAULTS = " Faults are injected on purpose: slow or failed requests come from the sandbox, not the add-in (docs/sandbox.md).";

describe("the sandbox's flags, echoed at start", () => {
  it.each<[string[], string]>([
    [[], "Sandbox flags: none (no faults injected)."],
    [["--scale", "3", "--seed", "7"], "Sandbox flags: --scale 3 --seed 7."],
    [["--anchor=2026-10-01"], "Sandbox flags: --anchor=2026-10-01."],
    [["--latency", "300"], `Sandbox flags: --latency 300.${FAULTS}`],
    [["--scale", "2", "--error-rate=0.2"], `Sandbox flags: --scale 2 --error-rate=0.2.${FAULTS}`],
    [["--drop-rate", "0.1"], `Sandbox flags: --drop-rate 0.1.${FAULTS}`],
    [["--rate-limit", "5"], `Sandbox flags: --rate-limit 5.${FAULTS}`],
    [["--lost-patch-rate", "0.5"], `Sandbox flags: --lost-patch-rate 0.5.${FAULTS}`],
    // A timeout is a limit, not a fault; a flag that only starts like a fault's name is not one.
    [["--idle-timeout", "100", "--latency-budget", "1"], "Sandbox flags: --idle-timeout 100 --latency-budget 1."],
  ])("%j", (flags, sentence) => {
    expect(flagsSentence(flags)).toBe(sentence);
  });
});

describe("a child that ended while npm start ran", () => {
  it("names the child, how it ended and what a person loses", () => {
    expect(deathSentence("sandbox", null, "SIGKILL")).toBe(
      "The sandbox stopped (killed by SIGKILL): the workbench and the add-in can no longer reach the service. npm start is ending everything it started; run npm start again.");
    expect(deathSentence("dev server", 1, null)).toBe(
      "The dev server stopped (exit code 1): the workbench and the add-in's pages are no longer served. npm start is ending everything it started; run npm start again.");
  });
});
