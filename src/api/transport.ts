/**
 * The raw road to the service: one HTTP exchange, nothing more. The real one is `fetch`; tests use a
 * scripted fake that records requests. Retries, timeouts, auth and parsing live in the client.
 */

export interface RawRequest {
  method: "GET" | "PATCH";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Most bytes of the answer's body to read; a longer body is not read on (AnswerTooLargeError). */
  maxBytes?: number;
}

export interface RawResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

export type Transport = (request: RawRequest) => Promise<RawResponse>;

import { AnswerTooLargeError } from "./errors";

/**
 * Global fetch: the Office webview and Node 20 both have it. Redirects are never followed with the key:
 * "manual" hands the 3xx (in a browser, an opaque response with status 0) to the client, which turns it into
 * a RedirectError that says so, instead of an anonymous network failure retried four times.
 */
export const fetchTransport: Transport = async (request) => {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, text: await readText(response, request.maxBytes) };
};

/**
 * The body as text, read as it arrives and given up as soon as it passes `maxBytes`: a hostile answer costs
 * at most that much memory, never its whole length.
 */
async function readText(response: Response, maxBytes: number | undefined): Promise<string> {
  if (maxBytes === undefined || response.body === null) return response.text();
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw new AnswerTooLargeError(`The answer is ${declared} bytes long, more than the ${maxBytes} read.`, "");
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(`The answer is longer than the ${maxBytes} bytes read.`, "");
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
