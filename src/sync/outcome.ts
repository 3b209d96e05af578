/** What happened to one edited record, and the journal line of each step. */
import type { StatePatch } from "../domain";
import type { TrackedValues } from "../sheets";

export type Outcome =
  /** The PATCH was applied (once), and the server still held it when the run ended. */
  | "applied"
  /** The server already held exactly what the row asks (an interrupted sync, or someone else did it): nothing sent. */
  | "already-applied"
  /** Applied by this run, then changed by someone else before the run ended: the row shows the server's values. */
  | "overwritten"
  /** The service refused it (400, 404) and the record reads as loaded: its message says why. */
  | "rejected"
  /** Refused locally: the row breaks a rule of the service, or cannot be synced. Never sent. */
  | "invalid"
  /** Questioned by Preview (an id that looks like a date or an amount) and not confirmed by the user. Never sent. */
  | "check"
  /** The record changed on the server since it was loaded. Not sent (or refused for that reason). */
  | "conflict"
  /** Not attempted: cancelled, the key was refused, or the workbook could not be written. */
  | "not-sent"
  /** Sent, but whether it was applied could not be confirmed: the next sync reads it before anything else. */
  | "unconfirmed";

/** The outcomes a record's sync can end in (sync-record.ts); the others are decided without sending. */
export type SendOutcome = Extract<Outcome, "applied" | "already-applied" | "rejected" | "conflict" | "unconfirmed" | "not-sent">;

export const OUTCOMES: readonly Outcome[] = ["applied", "already-applied", "overwritten", "rejected", "invalid", "check", "conflict", "not-sent", "unconfirmed"];

/**
 * The request a journal line records: a PATCH (its "sending" line, then its answer), a read of the record
 * (a GET: nothing is sent on such a line, and its status is the read's), or none (a decision made without a
 * request: an invalid row, a stopped run).
 */
export type JournalRequest = "PATCH" | "read" | "none";

/** One line of the journal: an intent ("sending"), an answer, a read, or a decision made without a request. */
export interface JournalEntry {
  at: Date;
  id: string;
  from: string;
  to: string;
  request: JournalRequest;
  /** The PATCH body in the columns' words ("State paid, Paid ID PAY-1"), on a PATCH's lines only; "" on a read's or a decision's. */
  sent: string;
  /** The exact request (method, path, and a PATCH's JSON body) for whoever must see it as sent; "" when the line records none. */
  exact?: string;
  /** HTTP status of the request the line records (`request`); null when there was no answer or no request. */
  httpStatus: number | null;
  /** "sending" before a PATCH leaves; then applied, unknown, retry, rejected, conflict, overwritten, ... */
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
  /** The record's tracked values as the server last showed them (applied, already-applied, overwritten, conflict). */
  server?: TrackedValues & { updated_at?: string };
  /** What this run's PATCH left on the server (applied): what the confirmation compares with. */
  sent?: TrackedValues;
  at: Date;
}
