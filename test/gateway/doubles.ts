/** Test doubles for the gateway: a manual timer, a stepping clock, and an upstream fetch stub that records calls. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

/**
 * The same stub as a real HTTP server on loopback, for a gateway on Node (either path: the fast path calls the
 * service with node:http, not fetch). `answer` is as stubUpstream's; the call's signal aborts when the gateway
 * gives the request up (closes it). `target` is the stub's URL, for the gateway's configuration.
 */
export async function serveStub(answer: (call: UpstreamCall) => Response | Promise<Response>): Promise<{ target: string; calls: UpstreamCall[]; close(): Promise<void> }> {
  const calls: UpstreamCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const aborted = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) aborted.abort(new DOMException("The gateway closed the request.", "AbortError"));
      });
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const call = { url: `${target}${req.url}`, method: req.method ?? "GET", headers, body: Buffer.concat(chunks).toString("utf8"), signal: aborted.signal };
      calls.push(call);
      let response: Response;
      try {
        response = await answer(call);
      } catch {
        return void res.destroy();
      }
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => (out[name] = value));
      res.writeHead(response.status, out);
      if (!response.body) return void res.end();
      res.flushHeaders();
      const reader = response.body.getReader();
      aborted.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined));
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
        res.end();
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    target,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
