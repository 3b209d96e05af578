/**
 * Team mode, assembled: the checked configuration, the token verifier, the database, the clock. One gate is
 * shared by the fetch handler (admission.ts, routes.ts) and any other entry that wants it (a Node fast path).
 */
import type { Timer } from "../timeout";
import { checkTeamConfig, DEFAULT_BATCH_VALIDITY_MS, type TeamConfig } from "./config";
import { ensureSchema, type SqlClient } from "./sql";
import { tokenVerifier, type TokenVerifier } from "./tokens";

export interface TeamGate {
  config: TeamConfig;
  verify: TokenVerifier;
  db: SqlClient;
  batchValidityMs: number;
  now: () => number;
  /** Waits `ms` (a repeat of a PATCH in flight polls for its answer). */
  sleep: (ms: number) => Promise<void>;
  /** How long a repeat waits for the answer of a PATCH another request is sending, and how often it looks. */
  inFlightWaitMs: number;
  inFlightPollMs: number;
  /** The Authorization header the service gets: the enterprise key, never shown to a caller. */
  serviceAuthorization: string;
}

export interface TeamGateOptions {
  now?: () => number;
  timer?: Timer;
  verify?: TokenVerifier;
  inFlightWaitMs?: number;
}

/** Checks the configuration, creates the tables if missing, and answers the gate. */
export async function createTeamGate(config: TeamConfig, db: SqlClient, options: TeamGateOptions = {}): Promise<TeamGate> {
  checkTeamConfig(config);
  await ensureSchema(db);
  const timer = options.timer;
  return {
    config,
    verify: options.verify ?? tokenVerifier(config),
    db,
    batchValidityMs: config.batchValidityMs ?? DEFAULT_BATCH_VALIDITY_MS,
    now: options.now ?? (() => Date.now()),
    sleep: (ms) => new Promise((resolve) => (timer ? timer.set(resolve, ms) : setTimeout(resolve, ms))),
    inFlightWaitMs: options.inFlightWaitMs ?? 10_000,
    inFlightPollMs: 50,
    serviceAuthorization: `Api-Key ${config.enterpriseKey}`,
  };
}
