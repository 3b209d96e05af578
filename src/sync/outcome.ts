/** What happened to one edited record, and the journal line of each attempt. */
import type { StatePatch } from "../domain";
import type { TrackedValues } from "../sheets";

export type Outcome =
  /** The PATCH was applied (once). */
  | "applied"
  /** The server already held the change (an interrupted sync, or someone else did it): nothing sent. */
  | "already-applied"
  /** The service refused it (400, 404): its message says why. */
  | "rejected"
  /** Refused locally: the row breaks a rule of the service. Never sent. */
  | "invalid"
  /** The record changed on the server since it was loaded. Not sent. */
  | "conflict"
  /** Not attempted: cancelled, or the key was refused. */
  | "not-sent"
  /** Sent, but whether it was applied could not be confirmed: the next sync reads it before anything else. */
  | "unconfirmed";

export const OUTCOMES: readonly Outcome[] = ["applied", "already-applied", "rejected", "invalid", "conflict", "not-sent", "unconfirmed"];

export interface JournalEntry {
  at: Date;
  id: string;
  from: string;
  to: string;
  /** The PATCH body as sent, or "" when nothing was sent. */
  sent: string;
  /** HTTP status of the attempt; null when there was no answer or no request. */
  httpStatus: number | null;
  outcome: string;
  message: string;
}

export interface RowResult {
  id: string;
  rows: number[];
  outcome: Outcome;
  message: string;
  from: string;
  to: string;
  patch?: StatePatch;
  /** The record's tracked values as the server returned them (applied, already-applied). */
  server?: TrackedValues & { updated_at?: string };
  at: Date;
  journal: JournalEntry[];
}
