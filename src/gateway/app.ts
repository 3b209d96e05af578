/**
 * The gateway as a web-standard fetch handler: `createGateway(config).fetch(request)` runs unchanged on Node
 * (through @hono/node-server, see node-server.ts), Cloudflare Workers, AWS Lambda (hono/aws-lambda) and
 * Azure Functions (azure-functions.ts). It uses only Request, Response, Headers, fetch, URL, AbortController,
 * TextEncoder/Decoder, btoa and setTimeout: no Node module. What it lets through is decided by admission.ts,
 * which the Node fast path (node-fast.ts) asks too.
 */
import { Hono } from "hono";
import { loggedPath } from "./access-log";
import { admit } from "./admission";
import { resolveConfig, type GatewayConfig, type ResolvedConfig } from "./config";
import { forward } from "./forward";
import { errorAnswer, toResponse } from "./http-errors";
import { headOfRequest } from "./request-head";
import { RequestLog } from "./request-log";

/** Builds the gateway; throws GatewayConfigError (naming the field) for a configuration it cannot run with. */
export function createGateway(config: GatewayConfig): Hono {
  const settings = resolveConfig(config);
  const app = new Hono();
  // One handler for every method and path (hono answers a HEAD with the GET route's head): admission.ts routes.
  app.all("*", (c) => answer(c.req.raw, settings));
  return app;
}

async function answer(request: Request, settings: ResolvedConfig): Promise<Response> {
  const log = new RequestLog(settings, request.headers.get("authorization"));
  const head = headOfRequest(request);
  let response: Response;
  try {
    // Awaited only when a check of admission's is asynchronous: a refusal goes out before the body is touched.
    const pending = admit(head, settings, log.redact);
    const decision = pending instanceof Promise ? await pending : pending;
    if ("answer" in decision) {
      // Nothing of a refused request's body is read (its source is told to stop before it is asked for a byte).
      request.body?.cancel().catch(() => undefined);
      response = toResponse(decision.answer);
    } else {
      response = await forward(request, decision.forward, settings, { redact: log.redact, event: (what) => log.note(what) });
      for (const [name, value] of Object.entries(decision.forward.cors)) response.headers.set(name, value);
    }
    log.answered(head, response.status);
  } catch (error) {
    // (Also a log that throws: its entry is lost, the caller still gets an answer.)
    response = toResponse(unexpected(error, head.method, head.url, log.redact));
  }
  return response;
}

/** A fault of the gateway's own: the error's name only is printed (a message could quote the request). */
export function unexpected(error: unknown, method: string, url: URL, redact: (text: string) => string) {
  console.error(`gateway: unexpected ${error instanceof Error ? error.name : "error"} on ${method.slice(0, 20)} ${loggedPath(url, redact)}`);
  return errorAnswer(500, "Unexpected gateway error.");
}
