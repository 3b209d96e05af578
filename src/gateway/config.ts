/**
 * What the gateway is told: the service to forward to and the add-in origins its CORS answers. Checked once,
 * when the gateway is created, so a typo fails at start-up and not on the first request from Excel.
 */
import type { AccessLogEntry } from "./access-log";
import type { TeamGate } from "./team/gate";
import { DEFAULT_ANSWER_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, MAX_BODY_BYTES } from "./limits";
import type { Timer } from "./timeout";

export interface GatewayConfig {
  /** The service's base URL (`https://api.example.com`, or with a path prefix); https, or http on loopback. */
  target: string;
  /** The add-in's origins (`https://addin.example.com`): the only pages whose preflights and requests are answered. */
  allowOrigins: readonly string[];
  /** Time the service has to start answering; default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Longest silence inside a request body or the service's answer; default DEFAULT_IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** The service's whole answer, head to last byte; default DEFAULT_ANSWER_TIMEOUT_MS. */
  answerTimeoutMs?: number;
  /**
   * The gateway's own public base URL (`https://gateway.example.com`), that `next`/`previous` links of list
   * answers are rewritten to. Default: the request's own origin, as the platform gives it (on Node behind a
   * TLS proxy that is the proxy's Host over http: set it there).
   */
  publicUrl?: string;
  /** Largest request body; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * Keys the gateway itself holds, redacted from every log line like the caller's own (team mode's enterprise
   * key; none by default). Never read from a flag or a variable here: a key on a command line is in `ps`.
   */
  knownKeys?: readonly string[];
  /** Receives one entry per request, secrets already removed; default: a JSON line on console.log. */
  log?: (entry: AccessLogEntry) => void;
  /** The upstream fetch (tests pass a stub); default the platform's global fetch. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Schedules the upstream timeout (tests pass a manual timer); default setTimeout/clearTimeout. */
  timer?: Timer;
  /** Milliseconds for the access log's durations and times (tests pass a clock); default Date.now. */
  now?: () => number;
  /** Team mode (docs/team-mode.md): people sign in, PATCHes go only in approved batches, the gateway holds the key. */
  team?: TeamGate;
}

/** The checked configuration, every default filled in. */
export interface ResolvedConfig {
  /** The target without a trailing slash, e.g. `https://api.example.com` or `https://host/spend`. */
  target: string;
  allowOrigins: ReadonlySet<string>;
  timeoutMs: number;
  idleTimeoutMs: number;
  answerTimeoutMs: number;
  /** Without a trailing slash, or null: the request's own origin. */
  publicUrl: string | null;
  maxBodyBytes: number;
  knownKeys: readonly string[];
  log: (entry: AccessLogEntry) => void;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  timer: Timer;
  now: () => number;
  team: TeamGate | null;
}

export type ConfigField =
  | "target" | "allowOrigins" | "timeoutMs" | "idleTimeoutMs" | "answerTimeoutMs" | "publicUrl" | "maxBodyBytes"
  | "headersTimeoutMs" | "requestTimeoutMs" | "maxConnections" | "fetch" | "handler";

/** A configuration mistake; `field` names what to fix (the CLI maps it to its flag). */
export class GatewayConfigError extends Error {
  override readonly name = "GatewayConfigError";
  constructor(readonly field: ConfigField, message: string) {
    super(message);
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function parseUrl(raw: string): URL | undefined {
  return URL.canParse(raw) ? new URL(raw) : undefined;
}

/** An address to listen on that only this machine can reach (`127.x.x.x`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  return /^(localhost|127(\.\d{1,3}){3}|::1)$/i.test(host);
}

/** Plain http would carry the key in clear: only to a loopback host (tests, a sidecar). */
function secureEnough(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.test(url.hostname));
}

/** The service URL, checked: https (http on loopback), no user info, no query or fragment. */
export function checkTarget(raw: string): string {
  const url = parseUrl(raw.trim());
  if (!url || !secureEnough(url)) throw new GatewayConfigError("target", `The target must be an https URL (http only on loopback), like https://api.example.com; got '${raw}'.`);
  if (url.username || url.password) throw new GatewayConfigError("target", "The target must not carry a user name or password; the key travels in each request's Authorization header.");
  if (url.search || url.hash) throw new GatewayConfigError("target", `The target must have no query or fragment; got '${raw}'.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** The gateway's public base URL, checked as the target is (https, or http on loopback; no user info, query or fragment). */
function checkPublicUrl(raw: string): string {
  const url = parseUrl(raw.trim());
  if (!url || !secureEnough(url) || url.username || url.password || url.search || url.hash) {
    throw new GatewayConfigError("publicUrl", `The public URL must be the gateway's own https URL (http only on loopback), with no user info, query or fragment, like https://gateway.example.com; got '${raw}'.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** An add-in origin, checked: scheme, host and port only; https (http on loopback); never `*` or `null`. */
export function checkOrigin(raw: string): string {
  const url = parseUrl(raw.trim());
  const bare = url !== undefined && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
  if (!url || !bare || !secureEnough(url)) {
    throw new GatewayConfigError("allowOrigins", `An allowed origin must be scheme://host[:port] with no path, https (http only on loopback), like https://addin.example.com; got '${raw}'.`);
  }
  return url.origin;
}

export function resolveConfig(config: GatewayConfig): ResolvedConfig {
  const target = checkTarget(config.target);
  if (config.allowOrigins.length === 0) throw new GatewayConfigError("allowOrigins", "Name at least one allowed origin: the add-in's (where dist/ is hosted).");
  const timeoutMs = positive("timeoutMs", config.timeoutMs, DEFAULT_TIMEOUT_MS);
  const answerTimeoutMs = positive("answerTimeoutMs", config.answerTimeoutMs, Math.max(DEFAULT_ANSWER_TIMEOUT_MS, timeoutMs));
  if (answerTimeoutMs < timeoutMs) {
    throw new GatewayConfigError("answerTimeoutMs", `answerTimeoutMs (${answerTimeoutMs}) must be at least timeoutMs (${timeoutMs}): the whole answer cannot take less than its start.`);
  }
  return {
    target,
    allowOrigins: new Set(config.allowOrigins.map(checkOrigin)),
    timeoutMs,
    idleTimeoutMs: positive("idleTimeoutMs", config.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS),
    answerTimeoutMs,
    publicUrl: config.publicUrl === undefined ? null : checkPublicUrl(config.publicUrl),
    maxBodyBytes: positive("maxBodyBytes", config.maxBodyBytes, MAX_BODY_BYTES),
    knownKeys: [...(config.knownKeys ?? []), ...(config.team ? [config.team.config.enterpriseKey] : [])],
    log: config.log ?? ((entry) => console.log(JSON.stringify(entry))),
    fetch: config.fetch ?? ((input, init) => fetch(input, init)),
    timer: config.timer ?? { set: unrefTimeout, clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
    now: config.now ?? (() => Date.now()),
    team: config.team ?? null,
  };
}

/** A whole number of at least 1 (milliseconds, bytes, connections), or the default when not given. */
export function positive(field: ConfigField, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new GatewayConfigError(field, `${field} must be a whole number above 0; got ${value}.`);
  return value;
}

/**
 * setTimeout, without holding a Node process open for a deadline alone: a server closing, or a test ending with
 * an answer nobody read, need not wait two minutes for its answer deadline. (Node's handle has `unref`; a
 * Worker's number has not, and needs none.)
 */
function unrefTimeout(fire: () => void, ms: number): unknown {
  const handle: unknown = setTimeout(fire, ms);
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

/**
 * The variable configFromEnv reads for each field, to name in a configuration error. (The other fields are
 * not read from the environment, so no error from configFromEnv's configuration can name them.)
 */
export const ENV_VARIABLE_OF: Partial<Record<ConfigField, string>> = {
  target: "GATEWAY_TARGET", allowOrigins: "GATEWAY_ALLOW_ORIGINS", timeoutMs: "GATEWAY_TIMEOUT_MS", idleTimeoutMs: "GATEWAY_IDLE_TIMEOUT_MS",
  answerTimeoutMs: "GATEWAY_ANSWER_TIMEOUT_MS", publicUrl: "GATEWAY_PUBLIC_URL",
};

/**
 * The configuration serverless platforms give as environment variables or bindings:
 * GATEWAY_TARGET, GATEWAY_ALLOW_ORIGINS (comma or space separated), and optionally GATEWAY_TIMEOUT_MS,
 * GATEWAY_IDLE_TIMEOUT_MS, GATEWAY_ANSWER_TIMEOUT_MS and GATEWAY_PUBLIC_URL.
 */
export function configFromEnv(env: Record<string, unknown>): GatewayConfig {
  const text = (name: string) => (typeof env[name] === "string" ? (env[name] as string) : "");
  const number = (name: string) => {
    const raw = text(name).trim();
    return raw === "" ? undefined : Number(raw);
  };
  const publicUrl = text("GATEWAY_PUBLIC_URL").trim();
  return {
    target: text("GATEWAY_TARGET"),
    allowOrigins: text("GATEWAY_ALLOW_ORIGINS").split(/[\s,]/).filter((o) => o !== ""),
    timeoutMs: number("GATEWAY_TIMEOUT_MS"),
    idleTimeoutMs: number("GATEWAY_IDLE_TIMEOUT_MS"),
    answerTimeoutMs: number("GATEWAY_ANSWER_TIMEOUT_MS"),
    ...(publicUrl === "" ? {} : { publicUrl }),
  };
}
