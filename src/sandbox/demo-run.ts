/**
 * What each part of the demo data is built with: the seeded random source (every record draws from it in
 * one fixed order, so the data depends only on the seed and the scale), the data so far, and the calendar
 * the dates are laid out on, before the anchor date.
 */
import type { SandboxData } from "./model";
import type { Random } from "./random";

export const DAY = 86_400_000;

export interface DemoRun {
  readonly rng: Random;
  readonly data: SandboxData;
  /** The anchor date, 00:00 UTC. */
  readonly anchorMs: number;
  /** A record count of the plan, multiplied by the scale (at least 1). */
  count(base: number): number;
}

/** YYYY-MM-DD of a UTC time. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
