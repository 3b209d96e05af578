/**
 * What `npm start` says about its sandbox beyond the URLs (issue 43): the flags it was started with, so that a
 * person who asked for faults (or forgot they did) reads it before blaming the add-in; and a child that died,
 * so that a workbench whose service is gone is never left looking as if it were running.
 */

/** The sandbox's flags that make it slow or fail on purpose (src/sandbox/cli.ts). */
const FAULT_FLAGS = ["--latency", "--error-rate", "--drop-rate", "--rate-limit", "--lost-patch-rate"];

/** The line naming the flags given after `npm start --`, and whether any injects faults. */
export function flagsSentence(flags: readonly string[]): string {
  if (flags.length === 0) return "Sandbox flags: none (no faults injected).";
  const faults = flags.some((flag) => FAULT_FLAGS.some((fault) => flag === fault || flag.startsWith(`${fault}=`)));
  return `Sandbox flags: ${flags.join(" ")}.${faults ? " Faults are injected on purpose: slow or failed requests come from the sandbox, not the add-in (docs/sandbox.md)." : ""}`;
}

/** The sentence when the sandbox or the dev server ended while npm start was running. */
export function deathSentence(role: "sandbox" | "dev server", code: number | null, signal: string | null): string {
  const how = signal ? `killed by ${signal}` : `exit code ${code}`;
  const what = role === "sandbox"
    ? "the workbench and the add-in can no longer reach the service"
    : "the workbench and the add-in's pages are no longer served";
  return `The ${role} stopped (${how}): ${what}. npm start is ending everything it started; run npm start again.`;
}
