/**
 * What the gateway is told: the service to forward to and the add-in origins its CORS answers. Checked once,
 * when the gateway is created, so a typo fails at start-up and not on the first request from Excel.
 */
import type { AccessLogEntry } from "./access-log";
import { DEFAULT_TIMEOUT_MS, MAX_BODY_BYTES } from "./limits";
import type { Timer } from "./timeout";

export interface GatewayConfig {
  /** The service's base URL (`https://api.example.com`, or with a path prefix); https, or http on loopback. */
  target: string;
  /** The add-in's origins (`https://addin.example.com`): the only pages whose preflights and requests are answered. */
  allowOrigins: readonly string[];
  /** Time the service has to start answering; default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Largest request body; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Receives one entry per request, secrets already removed; default: a JSON line on console.log. */
  log?: (entry: AccessLogEntry) => void;
  /** The upstream fetch (tests pass a stub); default the platform's global fetch. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Schedules the upstream timeout (tests pass a manual timer); default setTimeout/clearTimeout. */
  timer?: Timer;
  /** Milliseconds for the access log's durations and times (tests pass a clock); default Date.now. */
  now?: () => number;
}

/** The checked configuration, every default filled in. */
export interface ResolvedConfig {
  /** The target without a trailing slash, e.g. `https://api.example.com` or `https://host/spend`. */
  target: string;
  allowOrigins: ReadonlySet<string>;
  timeoutMs: number;
  maxBodyBytes: number;
  log: (entry: AccessLogEntry) => void;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  timer: Timer;
  now: () => number;
}

/** A configuration mistake; `field` names what to fix (the CLI maps it to its flag). */
export class GatewayConfigError extends Error {
  override readonly name = "GatewayConfigError";
  constructor(readonly field: "target" | "allowOrigins" | "timeoutMs" | "maxBodyBytes", message: string) {
    super(message);
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
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
  const positive = (field: "timeoutMs" | "maxBodyBytes", value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1) throw new GatewayConfigError(field, `${field} must be a whole number above 0; got ${value}.`);
    return value;
  };
  return {
    target,
    allowOrigins: new Set(config.allowOrigins.map(checkOrigin)),
    timeoutMs: positive("timeoutMs", config.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxBodyBytes: positive("maxBodyBytes", config.maxBodyBytes, MAX_BODY_BYTES),
    log: config.log ?? ((entry) => console.log(JSON.stringify(entry))),
    fetch: config.fetch ?? ((input, init) => fetch(input, init)),
    timer: config.timer ?? { set: (fn, ms) => setTimeout(fn, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
    now: config.now ?? (() => Date.now()),
  };
}

/** The variable configFromEnv reads for each field, to name in a configuration error. */
export const ENV_VARIABLE_OF: Record<GatewayConfigError["field"], string> = {
  target: "GATEWAY_TARGET", allowOrigins: "GATEWAY_ALLOW_ORIGINS", timeoutMs: "GATEWAY_TIMEOUT_MS", maxBodyBytes: "maxBodyBytes",
};

/**
 * The configuration serverless platforms give as environment variables or bindings:
 * GATEWAY_TARGET, GATEWAY_ALLOW_ORIGINS (comma or space separated), GATEWAY_TIMEOUT_MS (optional).
 */
export function configFromEnv(env: Record<string, unknown>): GatewayConfig {
  const text = (name: string) => (typeof env[name] === "string" ? (env[name] as string) : "");
  const timeout = text("GATEWAY_TIMEOUT_MS").trim();
  return {
    target: text("GATEWAY_TARGET"),
    allowOrigins: text("GATEWAY_ALLOW_ORIGINS").split(/[\s,]+/).filter((o) => o !== ""),
    timeoutMs: timeout === "" ? undefined : Number(timeout),
  };
}
