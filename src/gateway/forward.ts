/**
 * Forwards one request under /public/v1 to the service and relays the answer. Only the headers the service
 * reads go up and only plain response headers come back; a success body is streamed through untouched, an
 * error body is read (bounded) and relayed with the caller's key redacted, since a service or a proxy in front
 * of it may quote the request back. The key itself is passed on and forgotten: nothing here keeps it.
 */
import { readCapped } from "./body";
import type { ResolvedConfig } from "./config";
import { jsonError } from "./http-errors";
import { FORWARDED_METHODS, FORWARDED_REQUEST_HEADERS, MAX_ERROR_BODY_BYTES, RELAYED_RESPONSE_HEADERS } from "./limits";
import { deadline } from "./timeout";

/** Statuses whose answers carry no body (the Response constructor refuses one). */
const NO_BODY = new Set([204, 205, 304]);

export async function forward(request: Request, config: ResolvedConfig, redact: (text: string) => string): Promise<Response> {
  const url = new URL(request.url);
  // The URL parser has already resolved `..` (also as %2e%2e); an encoded slash or backslash could still be
  // decoded into a path separator by the service, to reach outside /public/v1.
  if (/%2f|%5c/i.test(url.pathname)) return jsonError(400, "A path with an encoded slash or backslash is not forwarded.");
  const method = request.method;
  if (!(FORWARDED_METHODS as readonly string[]).includes(method)) {
    return jsonError(405, `Method ${method.slice(0, 20)} is not forwarded; the gateway forwards ${FORWARDED_METHODS.join(", ")}.`, { Allow: `${FORWARDED_METHODS.join(", ")}, OPTIONS` });
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method === "PATCH") {
    const read = await readCapped(request.body, request.headers.get("content-length"), config.maxBodyBytes);
    if (!read.ok) return jsonError(413, `The request body is larger than ${config.maxBodyBytes} bytes.`);
    body = read.bytes;
  }
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }

  const timeout = deadline(config.timer, config.timeoutMs);
  const timedOut = () => jsonError(504, `The service did not answer within ${config.timeoutMs} ms.`);
  let upstream: Response;
  try {
    upstream = await config.fetch(`${config.target}${url.pathname}${url.search}`, { method, headers, body, redirect: "manual", signal: timeout.signal });
  } catch (error) {
    timeout.cancel();
    return timeout.expired() ? timedOut() : jsonError(502, redact(`The service could not be reached (${reasonOf(error)}).`));
  }
  try {
    return await relay(upstream, method, redact);
  } catch (error) {
    return timeout.expired() ? timedOut() : jsonError(502, redact(`The service's answer broke off (${reasonOf(error)}).`));
  } finally {
    // A streamed success body is not under the deadline: the service has answered, and a large list page
    // may take its time to arrive.
    timeout.cancel();
  }
}

async function relay(upstream: Response, method: string, redact: (text: string) => string): Promise<Response> {
  const headers = new Headers();
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, name === "location" ? redact(value) : value);
  }
  headers.set("X-Content-Type-Options", "nosniff");
  const status = upstream.status;
  if (method === "HEAD" || NO_BODY.has(status)) {
    await upstream.body?.cancel().catch(() => undefined);
    return new Response(null, { status, headers });
  }
  if (status < 400) return new Response(upstream.body, { status, headers });
  const read = await readCapped(upstream.body, null, MAX_ERROR_BODY_BYTES);
  if (!read.ok) {
    const replaced = jsonError(status, `The service answered ${status} with an error body over ${MAX_ERROR_BODY_BYTES} bytes; it is not relayed.`);
    const retryAfter = headers.get("retry-after");
    if (retryAfter !== null) replaced.headers.set("Retry-After", retryAfter);
    return replaced;
  }
  const text = read.bytes ? new TextDecoder().decode(read.bytes) : "";
  return new Response(redact(text), { status, headers });
}

/** A short cause for the operator (`ECONNREFUSED`, `AbortError`): never the request, never its headers. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return cause.code.slice(0, 40);
  return error instanceof Error ? error.name.slice(0, 40) : "unknown error";
}
