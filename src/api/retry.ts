/** Retry policy as typed data (octokit plugin-retry, ky retry-timing): capped exponential backoff, jitter, Retry-After. */

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  retries: number;
  /** The first backoff; each retry doubles it. */
  baseDelayMs: number;
  /** No backoff is longer than this. */
  maxDelayMs: number;
  /** Share of each backoff that is randomised (0: none; 1: anywhere from 0 to the full delay). */
  jitter: number;
  /** Statuses worth another try. Network errors and timeouts are always retried (GET only). */
  statuses: readonly number[];
  /** A Retry-After longer than this is not waited for: the error is given to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({
  retries: 4,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  jitter: 0.5,
  statuses: [429, 500, 502, 503, 504],
  maxRetryAfterMs: 60_000,
});

/** Backoff before retry number `attempt` (1 for the first retry). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const capped = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(capped * (1 - policy.jitter * random()));
}

/**
 * Reads Retry-After in both of its forms: delay-seconds ("120") and HTTP-date
 * ("Wed, 21 Oct 2026 07:28:00 GMT"). Returns milliseconds from `now`, or null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Every HTTP-date form starts with a day name; Date.parse alone would read "1.5" or "-5" as a past date (0 ms).
  if (!/^[a-z]{3}/i.test(value)) return null;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
