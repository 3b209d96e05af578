/**
 * What the planner makes of one row's edit (plan.ts's judgeEdit), on its own so that what refines a verdict
 * (formula-values.ts) need not import the planner that uses it.
 */
import type { StatePatch } from "../domain";

export type EditVerdict =
  | { kind: "unchanged" }
  | { kind: "change"; patch: StatePatch }
  | { kind: "invalid"; message: string };
