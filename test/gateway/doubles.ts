/** Test doubles for the gateway: a manual timer, a stepping clock, and an upstream fetch stub that records calls. */
import type { AccessLogEntry, GatewayConfig, Timer } from "../../src/gateway";

/** setTimeout by hand: tests fire what is pending; nothing waits on the wall clock. */
export class ManualTimer implements Timer {
  private next = 1;
  readonly pending = new Map<number, { fire: () => void; ms: number }>();
  set(fire: () => void, ms: number): number {
    const id = this.next++;
    this.pending.set(id, { fire, ms });
    return id;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Fires the pending timeouts set for `ms` (as if that much time had passed for them only). */
  fire(ms: number): void {
    const due = [...this.pending].filter(([, t]) => t.ms === ms);
    for (const [id] of due) this.pending.delete(id);
    for (const [, t] of due) t.fire();
  }
  /** Fires every pending timeout (as if their time had come). */
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fire();
  }
}

/** A clock that moves 7 ms every time it is read: durations are exact and known. */
export function steppingClock(start = Date.UTC(2026, 4, 1, 10, 0, 0), step = 7): () => number {
  let t = start - step;
  return () => (t += step);
}

export interface UpstreamCall {
  url: string;
  method: string;
  headers: Headers;
  body: string;
  signal: AbortSignal | undefined;
}

/** An upstream fetch answering with `answer`; every call is recorded. */
export function stubUpstream(answer: (call: UpstreamCall) => Response | Promise<Response>): { fetch: NonNullable<GatewayConfig["fetch"]>; calls: UpstreamCall[] } {
  const calls: UpstreamCall[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      const body = init.body instanceof Uint8Array ? new TextDecoder().decode(init.body) : "";
      const call = { url, method: init.method ?? "GET", headers: new Headers(init.headers), body, signal: init.signal ?? undefined };
      calls.push(call);
      return answer(call);
    },
  };
}

/** An upstream that never answers until its request is aborted (then rejects, as fetch does). */
export function silentUpstream(): { fetch: NonNullable<GatewayConfig["fetch"]>; calls: UpstreamCall[] } {
  return stubUpstream((call) => new Promise<Response>((_resolve, reject) => {
    call.signal?.addEventListener("abort", () => reject(call.signal!.reason), { once: true });
  }));
}

export function collectLogs(): { log: (entry: AccessLogEntry) => void; entries: AccessLogEntry[] } {
  const entries: AccessLogEntry[] = [];
  return { entries, log: (entry) => entries.push(entry) };
}
