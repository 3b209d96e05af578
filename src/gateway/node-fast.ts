/**
 * The gateway's Node fast path (issue 49: the fetch handler behind @hono/node-server spent ~3 ms a request in
 * web streams, undici and the adapter, where a plain proxy spends 0.4): Node's own request and response, the
 * same decision (admission.ts), the same access-log entries (request-log.ts), the same answers
 * (forward-answers.ts), and node:http to the service (node-relay.ts). For the caller it answers as the fetch
 * handler does; test/gateway/fast-path-answers-as-fetch-handler.test.ts holds the two to that.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { unexpected } from "./app";
import { admit } from "./admission";
import { GatewayConfigError, type ResolvedConfig } from "./config";
import type { PlainAnswer } from "./http-errors";
import { drainRest } from "./node-body";
import type { RequestHead } from "./request-head";
import { relayNode } from "./node-relay";
import type { UpstreamAgents } from "./node-upstream";
import { RequestLog } from "./request-log";

/** Answers one request whose head node-server.ts has checked (`head`, its URL built). */
export async function serveFast(req: IncomingMessage, res: ServerResponse, head: RequestHead, settings: ResolvedConfig, agents: UpstreamAgents): Promise<void> {
  const log = new RequestLog(settings, head.header("authorization"));
  let cors: Record<string, string> = {};
  /** A fault of the gateway's own (the log threw, say): 500 while no head went out, else the connection cut. */
  const fault = (error: unknown) => {
    const plain = unexpected(error, head.method, head.url, log.redact);
    if (res.headersSent) return void res.destroy();
    res.writeHead(plain.status, plain.headers);
    res.end(plain.body);
  };
  const sendHead = (status: number, headers: Record<string, string>) => {
    try {
      log.answered(head, status);
    } catch (error) {
      fault(error);
      return false;
    }
    res.writeHead(status, { ...headers, ...cors });
    return true;
  };
  const answer = (plain: PlainAnswer) => {
    // Framed by its length, as @hono/node-server frames a whole body (a keep-alive caller reads to its end).
    const length: Record<string, string> = plain.body === null || head.method === "HEAD" ? {} : { "Content-Length": String(Buffer.byteLength(plain.body)) };
    if (res.headersSent || res.destroyed || !sendHead(plain.status, { ...plain.headers, ...length })) return;
    res.end(plain.body ?? undefined);
    // Nothing of a refused body is needed: what is still coming is read and dropped, or the connection closed.
    if (!req.complete) drainRest(req);
  };
  const note = (event: string) => {
    try {
      log.note(event);
    } catch (error) {
      fault(error);
    }
  };
  try {
    const pending = admit(head, settings, log.redact);
    const decision = pending instanceof Promise ? await pending : pending;
    // Team mode is served by the fetch handler only (node-server.ts): called for it anyway, this sends nothing.
    if ("team" in decision || settings.team !== null) throw new GatewayConfigError("handler", "Team mode runs on the fetch handler only.");
    if ("answer" in decision) return answer(decision.answer);
    cors = decision.forward.cors;
    await relayNode({ req, res, to: decision.forward, settings, redact: log.redact, note, answer, head: sendHead }, agents);
  } catch (error) {
    fault(error);
  }
}
