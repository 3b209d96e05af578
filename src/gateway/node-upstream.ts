/**
 * The Node fast path's request to the service: node:http (or https) over keep-alive connections, the headers
 * admission.ts chose and nothing else, no redirect followed. A GET or HEAD that meets a kept-alive connection
 * the service had just closed is sent once more on a new one (Node's documented retry for `reusedSocket`), as
 * fetch would not fail it either.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";
import type { Forwarding } from "./admission";

export interface UpstreamAgents {
  http: HttpAgent;
  https: HttpsAgent;
  destroy(): void;
}

/** Keep-alive connections to the service, one pool per scheme. */
export function upstreamAgents(): UpstreamAgents {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });
  return { http, https, destroy: () => (http.destroy(), https.destroy()) };
}

export interface UpstreamCall {
  /** The service's answer head, or why there is none (a socket error: its code). */
  head: Promise<IncomingMessage | { error: NodeJS.ErrnoException }>;
  /** Stops the request and whatever of the answer is still coming. */
  abort(): void;
}

/** The service's origin as node:http takes it, parsed once (issue 49: a URL parse a request was a measurable share). */
let lastOrigin: { origin: string; options: ReturnType<typeof urlToHttpOptions> } | null = null;

/** `url`'s origin as request options, and its path and query as sent (admission.ts built it from parsed parts). */
function requestTarget(url: string): { options: ReturnType<typeof urlToHttpOptions>; path: string } {
  const slash = url.indexOf("/", url.indexOf("//") + 2);
  const origin = slash < 0 ? url : url.slice(0, slash);
  if (lastOrigin?.origin !== origin) lastOrigin = { origin, options: urlToHttpOptions(new URL(origin)) };
  return { options: lastOrigin.options, path: slash < 0 ? "/" : url.slice(slash) };
}

/** Sends `to` (with `body`, a PATCH's) to the service. */
export function callService(to: Forwarding, body: Buffer | undefined, agents: UpstreamAgents): UpstreamCall {
  let current: ClientRequest | undefined;
  let aborted = false;
  const send = (retry: boolean) => new Promise<IncomingMessage | { error: NodeJS.ErrnoException }>((resolve) => {
    const secure = to.url.startsWith("https:");
    const headers: Record<string, string> = { ...to.headers };
    if (to.method === "PATCH") headers["content-length"] = String(body?.length ?? 0);
    const target = requestTarget(to.url);
    const options = { ...target.options, path: target.path, method: to.method, headers, agent: secure ? agents.https : agents.http };
    const request = secure ? httpsRequest(options) : httpRequest(options);
    current = request;
    request.once("response", resolve);
    // (A listener for good: a socket error after the answer began must not be an uncaught one.)
    let failed = false;
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (failed) return;
      failed = true;
      if (retry && !aborted && request.reusedSocket && error.code === "ECONNRESET" && to.method !== "PATCH") resolve(send(false));
      else resolve({ error });
    });
    request.end(body);
  });
  return {
    head: send(true),
    abort: () => {
      aborted = true;
      current?.destroy();
    },
  };
}
