/**
 * Fault injection for client tests (`--latency`, `--error-rate`, `--drop-rate`, `--rate-limit`,
 * `--lost-patch-rate`). It wraps the Node request listener because a dropped connection needs the socket.
 * Every request draws the same number of random values from a generator seeded by `--seed`, so a given
 * sequence of requests meets the same faults on every run.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "./http-errors";
import { Random } from "./random";

export interface FaultOptions {
  /** Added before every response, in milliseconds. */
  latencyMs: number;
  /** Share of requests answered 500. */
  errorRate: number;
  /** Share of requests whose connection is closed without a response. */
  dropRate: number;
  /** More than this many requests in one second are answered 429 (0: no limit). */
  rateLimit: number;
  /** Share of PATCHes applied and then dropped before the response is sent. */
  lostPatchRate: number;
}

/** Where fault injection gets the time and waits; tests pass their own so no test depends on the clock. */
export interface FaultTiming {
  /** Epoch milliseconds (the rate limit's one-second windows). */
  now(): number;
  /** Resolves after `ms` (the latency fault). */
  sleep(ms: number): Promise<void>;
}

const REAL_TIMING: FaultTiming = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export const NO_FAULTS: FaultOptions = { latencyMs: 0, errorRate: 0, dropRate: 0, rateLimit: 0, lostPatchRate: 0 };

export interface FaultStats {
  requests: number;
  errors: number;
  drops: number;
  rateLimited: number;
  lostPatches: number;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export class FaultInjector {
  readonly stats: FaultStats = { requests: 0, errors: 0, drops: 0, rateLimited: 0, lostPatches: 0 };
  private readonly rng: Random;
  private windowSecond = -1;
  private windowCount = 0;
  private readonly timing: FaultTiming;

  constructor(private readonly options: FaultOptions, seed: number, timing: Partial<FaultTiming> = {}) {
    this.rng = new Random(seed, "faults");
    this.timing = { ...REAL_TIMING, ...timing };
  }

  get active(): boolean {
    const o = this.options;
    return o.latencyMs > 0 || o.errorRate > 0 || o.dropRate > 0 || o.rateLimit > 0 || o.lostPatchRate > 0;
  }

  wrap(listener: Listener): Listener {
    if (!this.active) return listener;
    return (req, res) => {
      this.stats.requests++;
      const o = this.options;
      const error = this.rng.next() < o.errorRate;
      const drop = this.rng.next() < o.dropRate;
      const lost = this.rng.next() < o.lostPatchRate && req.method === "PATCH";
      const limited = this.overLimit();
      const go = () => {
        if (limited !== null) {
          this.stats.rateLimited++;
          return sendJson(res, 429, errorBody(429, "Too many requests: slow down and retry after the time in Retry-After."), {
            "Retry-After": String(limited),
          });
        }
        if (drop) {
          this.stats.drops++;
          req.socket.destroy();
          return;
        }
        if (error) {
          this.stats.errors++;
          return sendJson(res, 500, errorBody(500, "Injected server error (sandbox --error-rate)."));
        }
        if (lost) this.loseSuccessfulResponse(req, res);
        return listener(req, res);
      };
      if (o.latencyMs > 0) void this.timing.sleep(o.latencyMs).then(go);
      else void go();
    };
  }

  /** Seconds to wait when this request is over the rate limit, else null. */
  private overLimit(): number | null {
    if (this.options.rateLimit <= 0) return null;
    const now = this.timing.now();
    const second = Math.floor(now / 1000);
    if (second !== this.windowSecond) {
      this.windowSecond = second;
      this.windowCount = 0;
    }
    this.windowCount++;
    return this.windowCount > this.options.rateLimit ? 1 : null;
  }

  /** The PATCH is applied by the handler; a success is then never delivered (the spec's lost-response case). */
  private loseSuccessfulResponse(req: IncomingMessage, res: ServerResponse): void {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    let lost = false;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      if (status >= 200 && status < 300) {
        lost = true;
        this.stats.lostPatches++;
        req.socket.destroy();
        return res;
      }
      return writeHead(status, ...rest);
    }) as ServerResponse["writeHead"];
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.end = ((...args: unknown[]) => (lost ? res : end(...args))) as ServerResponse["end"];
    res.write = ((...args: unknown[]) => (lost ? true : write(...args))) as ServerResponse["write"];
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
