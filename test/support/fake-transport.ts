/** Test double #1 of DESIGN.md: a scripted transport that records every request it is given. */
import type { RawRequest, RawResponse, Transport } from "../../src/api/transport";

export type Reply = { status?: number; body?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number } | Error;
export type Script = (request: RawRequest, index: number) => Reply | Promise<Reply>;

export interface FakeTransport {
  transport: Transport;
  requests: RawRequest[];
  /** Most requests that were in flight at once. */
  maxInFlight(): number;
}

export function fakeTransport(script: Script): FakeTransport {
  const requests: RawRequest[] = [];
  let inFlight = 0;
  let max = 0;
  const transport: Transport = async (request) => {
    requests.push(request);
    inFlight++;
    max = Math.max(max, inFlight);
    try {
      const reply = await script(request, requests.length - 1);
      if (reply instanceof Error) throw reply;
      if (reply.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, reply.delayMs);
          request.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new DOMException("aborted", "AbortError"));
          });
        });
      }
      const text = reply.text ?? JSON.stringify(reply.body ?? {});
      const headers = new Headers(reply.headers ?? {});
      return { status: reply.status ?? 200, headers, text } satisfies RawResponse;
    } finally {
      inFlight--;
    }
  };
  return { transport, requests, maxInFlight: () => max };
}

/** A page of a list of `total` records with ids r1…rN, as the service would answer it. */
export function pageOf(url: string, total: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const u = new URL(url);
  const page = Number(u.searchParams.get("page") ?? 1);
  const size = Number(u.searchParams.get("page_size") ?? 100);
  const start = (page - 1) * size;
  const results = [];
  for (let i = start; i < Math.min(total, start + size); i++) results.push({ ...card(`r${i + 1}`), ...extra });
  const link = (p: number) => {
    const l = new URL(url);
    l.searchParams.set("page", String(p));
    return l.toString();
  };
  return { count: total, next: start + size < total ? link(page + 1) : null, previous: page > 1 ? link(page - 1) : null, results };
}

export function card(id: string): Record<string, unknown> {
  return {
    id, user_id: "u1", last_four_digits: "1234", bank_id: "b1", national_balance_currency: "CLP",
    international_balance_currency: "USD", billing_day: 5, billing_mode: "bank_movements",
  };
}
