/**
 * The client: base URL + enterprise id + key. It owns timeouts, cancellation, the GET retry policy, the
 * origin rule for the key, error mapping and response validation. Runs in the Office webview and Node 20.
 * What a non-2xx answer means, in words, is answer-errors.ts's.
 */
import type { z } from "zod";
import { answerError, tooLargeError, type AnswerContext } from "./answer-errors";
import { checkBaseUrl, checkLinkOrigin } from "./base-url";
import { AnswerTooLargeError, CancelledError, InvalidRequestError, NetworkError, RateLimitError, TimeoutError, type RequestInfo } from "./errors";
import { redactSecrets, registerSecret } from "./redact";
import { wordsOf } from "./request-words";
import { DEFAULT_RETRY, backoffDelay, parseRetryAfter, type RetryPolicy } from "./retry";
import { checkSchema, checkValueBudget, parseJson } from "./schema-check";
import { fetchTransport, type RawResponse, type Transport } from "./transport";

export interface ClientConfig {
  /** Where the service is, e.g. `https://api.example.com` (a path prefix such as a proxy route is kept). */
  baseUrl: string;
  enterpriseId: string;
  apiKey: string;
  /** Per request, in milliseconds (default 30 s). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Pages fetched at once by list calls (default 6). */
  concurrency?: number;
  transport?: Transport;
  /** For deterministic jitter in tests. */
  random?: () => number;
  /** Waits between retries (default: a timer that the signal cancels). Tests pass one that records the delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock that an HTTP-date Retry-After is read against (default Date.now). */
  now?: () => number;
  /** Told of every attempt; it gets no headers, so no key. */
  onRequest?: (event: { method: string; url: string; attempt: number }) => void;
  /** Most bytes of one answer read (default DEFAULT_MAX_RESPONSE_BYTES); a longer one is refused unread. */
  maxResponseBytes?: number;
}

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface SendOptions {
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Requests at once: what a browser gives one host over HTTP/1.1 (Chrome, Edge's WebView2, Safari and Firefox
 * open at most 6 connections per host name), so no request of ours waits inside the webview for a socket.
 */
export const DEFAULT_CONCURRENCY = 6;
/**
 * Most bytes of one answer: 22 times the largest page the sandbox sends (1,000 expenses with every expand,
 * 1.4 MB). Above it an answer is not read on, so a hostile one costs at most this much memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export class SpendClient {
  readonly baseUrl: string;
  readonly origin: string;
  readonly enterpriseId: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly retry: Readonly<RetryPolicy>;
  readonly maxResponseBytes: number;
  /** Attempts sent, retries among them. */
  readonly stats = { requests: 0, retries: 0 };
  private readonly transport: Transport;
  private readonly random: () => number;
  /** The client's way of waiting (injectable for tests); callers that wait between calls use it too. */
  readonly sleep: NonNullable<ClientConfig["sleep"]>;
  private readonly now: () => number;
  private readonly onRequest?: ClientConfig["onRequest"];
  /** What the messages of a non-2xx answer name or read against. */
  private readonly answers: AnswerContext;
  // An ES private field: not enumerable, not shown by console.log or util.inspect, not in JSON.
  readonly #apiKey: string;

  constructor(config: ClientConfig) {
    // Registered first: even the messages about a bad base URL or enterprise id are redacted.
    registerSecret(config.apiKey.trim());
    const url = checkBaseUrl(config.baseUrl);
    if (!config.enterpriseId.trim()) throw new InvalidRequestError("The enterprise id is empty; copy it from the service's settings.");
    if (!config.apiKey.trim()) throw new InvalidRequestError("The API key is empty.");
    this.baseUrl = url.toString().replace(/\/+$/, "");
    this.origin = url.origin;
    this.enterpriseId = config.enterpriseId.trim();
    this.#apiKey = config.apiKey.trim();
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.concurrency = Math.max(1, config.concurrency ?? DEFAULT_CONCURRENCY);
    this.retry = Object.freeze({ ...DEFAULT_RETRY, ...config.retry });
    this.maxResponseBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.transport = config.transport ?? fetchTransport;
    this.random = config.random ?? Math.random;
    this.sleep = config.sleep ?? sleep;
    this.now = config.now ?? Date.now;
    this.onRequest = config.onRequest;
    this.answers = {
      baseUrl: this.baseUrl, origin: this.origin, enterpriseId: this.enterpriseId, now: this.now,
      alwaysThere: () => new URL(this.url("corporate-cards/")).pathname,
    };
  }

  /** An absolute URL under `/public/v1/enterprises/{enterprise_id}/`. */
  url(path: string, query: Query = {}): string {
    const url = new URL(`${this.baseUrl}/public/v1/enterprises/${encodeURIComponent(this.enterpriseId)}/${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        if (value.length > 0) url.searchParams.set(key, value.join(","));
      } else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Redacts the key (and every other registered key) from any text: the same choke point as `redactSecrets`. */
  redact(text: string): string {
    return redactSecrets(text);
  }

  /** GET with retries; the body is checked against `schema`. */
  async get<T>(schema: z.ZodType<T>, resource: string, url: string, options: SendOptions = {}): Promise<T> {
    return this.decode(schema, resource, await this.send("GET", url, undefined, options));
  }

  /**
   * GET with retries, up to a 2xx answer's text, not yet parsed: a list frees its place on the network with
   * it and starts the next page before it spends CPU on this one. `decode` then parses and checks it.
   */
  getText(url: string, options: SendOptions = {}): Promise<string> {
    return this.send("GET", url, undefined, options);
  }

  /**
   * A 2xx answer's text holding one record as a value checked against `schema` (SchemaError naming the field
   * otherwise). An answer that can hold more values than a record needs is refused before it is parsed.
   */
  decode<T>(schema: z.ZodType<T>, resource: string, text: string): T {
    checkValueBudget(text, resource, 1);
    return checkSchema(schema, parseJson(text, resource), resource);
  }

  /** PATCH once: never retried here, since a lost answer may hide an applied change (the caller reads first). */
  async patch<T>(schema: z.ZodType<T>, resource: string, url: string, body: unknown, options: SendOptions = {}): Promise<T> {
    return this.decode(schema, resource, await this.send("PATCH", url, patchBodyText(body), options));
  }

  /** One call with its retries; the text of its 2xx answer, or the error that says what went wrong. */
  private async send(method: "GET" | "PATCH", url: string, body: string | undefined, options: SendOptions): Promise<string> {
    this.checkOrigin(url);
    const info: RequestInfo = { method, url: redactSecrets(pathOf(url)) };
    const retries = method === "GET" ? this.retry.retries : 0;
    for (let attempt = 1; ; attempt++) {
      if (options.signal?.aborted) throw new CancelledError("Cancelled.");
      let delay: number | null = null;
      let failure: Error;
      try {
        const raw = await this.exchange(method, url, body, info, options.signal, attempt);
        if (raw.status >= 200 && raw.status < 300) return raw.text;
        failure = answerError(raw, url, info, this.answers);
        if (!this.retry.statuses.includes(raw.status)) throw failure;
        const asked = failure instanceof RateLimitError ? failure.retryAfterMs : parseRetryAfter(raw.headers.get("retry-after"), this.now());
        if (asked !== null) {
          if (asked > this.retry.maxRetryAfterMs) throw failure;
          delay = asked;
        }
      } catch (error) {
        if (!(error instanceof NetworkError || error instanceof TimeoutError)) throw error;
        failure = error;
      }
      if (attempt > retries) throw failure;
      this.stats.retries++;
      await this.sleep(delay ?? backoffDelay(this.retry, attempt, this.random), options.signal);
    }
  }

  /** One attempt, with the timeout and the caller's signal; errors without the key. */
  private async exchange(
    method: "GET" | "PATCH", url: string, body: string | undefined, info: RequestInfo, signal: AbortSignal | undefined,
    attempt: number,
  ): Promise<RawResponse> {
    const timeout = new AbortController();
    const onAbort = () => timeout.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      timeout.abort();
    }, this.timeoutMs);
    this.stats.requests++;
    this.onRequest?.({ method, url: info.url, attempt });
    const headers: Record<string, string> = { Authorization: `Api-Key ${this.#apiKey}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let raw: RawResponse;
    try {
      raw = await this.transport({ method, url, headers, body, signal: timeout.signal, maxBytes: this.maxResponseBytes });
    } catch (error) {
      if (signal?.aborted) throw new CancelledError("Cancelled.");
      if (error instanceof AnswerTooLargeError) throw tooLargeError(method, info, this.maxResponseBytes);
      if (timedOut) {
        throw new TimeoutError(
          `The service did not answer within ${duration(this.timeoutMs)} while ${wordsOf(info).doing}.`,
          info,
          this.timeoutMs,
        );
      }
      throw new NetworkError(`Could not reach the service at ${this.origin} while ${wordsOf(info).doing}: ${describe(error)}.`, info);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
    // A transport that reads the whole body anyway (a test's): the same refusal. UTF-8 takes at least a
    // byte per UTF-16 unit, so a text longer than the limit in units is longer in bytes too.
    if (raw.text.length > this.maxResponseBytes) throw tooLargeError(method, info, this.maxResponseBytes);
    return raw;
  }

  /** The key goes only to the configured origin (scheme, host and port): a link elsewhere is refused before anything is sent. */
  checkOrigin(url: string): void {
    checkLinkOrigin(url, this.origin);
  }
}

/** The exact text a PATCH body is sent as: a team batch freezes this text, and the gateway compares it byte for byte. */
export function patchBodyText(body: unknown): string {
  return JSON.stringify(body);
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** The useful part of a fetch failure (undici hides the reason in `cause`). */
function describe(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e.message ?? "failed"} (${cause})` : (e?.message ?? String(error));
}

/** Waits, or rejects with CancelledError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError("Cancelled."));
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError("Cancelled."));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
