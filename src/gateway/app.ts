/**
 * The gateway as a web-standard fetch handler: `createGateway(config).fetch(request)` runs unchanged on Node
 * (through @hono/node-server, see node-server.ts), Cloudflare Workers, AWS Lambda (hono/aws-lambda) and
 * Azure Functions (azure-functions.ts). It uses only Request, Response, Headers, fetch, URL, AbortController,
 * TextEncoder/Decoder, btoa and setTimeout: no Node module. What it lets through is decided by admission.ts,
 * which the Node fast path (node-fast.ts) asks too. In team mode (docs/team-mode.md) it alone serves: every
 * request admitted to the service then also passes team/admission.ts (the person's token, a PATCH only once
 * from its approved batch), and /team/v1 is the team API; node-server.ts never runs the fast path for it.
 */
import { Hono } from "hono";
import { loggedPath } from "./access-log";
import { admit, type Forwarding } from "./admission";
import { resolveConfig, type GatewayConfig, type ResolvedConfig } from "./config";
import { forward, type ForwardHooks } from "./forward";
import { errorAnswer, jsonError, toResponse } from "./http-errors";
import { TEAM_PREFIX } from "./limits";
import { headOfRequest } from "./request-head";
import { redactorFor } from "./redact";
import { RequestLog } from "./request-log";
import { RECORDING_MARGIN_MS } from "./team/abandoned";
import { admitTeamRequest, type BodyLimits } from "./team/admission";
import type { TeamGate } from "./team/gate";
import { teamRoutes } from "./team/routes";

/** Builds the gateway; throws GatewayConfigError (naming the field) for a configuration it cannot run with. */
export function createGateway(config: GatewayConfig): Hono {
  const settings = resolveConfig(config);
  const app = new Hono();
  const team = settings.team ? teamMode(settings.team, settings) : null;
  // One handler for every method and path (hono answers a HEAD with the GET route's head): admission.ts routes.
  app.all("*", (c) => answer(c.req.raw, settings, team));
  return app;
}

/** Team mode's two parts: the team API, and the forwarding of what team admission lets through. */
interface TeamMode {
  api: Hono;
  forward(request: Request, to: Forwarding, hooks: ForwardHooks): Promise<Response>;
}

function teamMode(gate: TeamGate, settings: ResolvedConfig): TeamMode {
  // A PATCH abandoned while sending is resolved by reading its record with the key (team/abandoned.ts), once
  // this forwarder's own deadline for a whole answer has passed for it.
  const redact = redactorFor([gate.config.enterpriseKey]);
  const read = (path: string) => {
    const headers = { authorization: gate.serviceAuthorization, accept: "application/json" };
    const url = `${settings.target}${path}`;
    return forward(new Request(url, { headers }), { url, method: "GET", headers, publicBase: settings.target, cors: {} }, settings, { redact, event: () => undefined });
  };
  const recovery = { read, abandonedAfterMs: settings.answerTimeoutMs + RECORDING_MARGIN_MS };
  const limits: BodyLimits = { maxBodyBytes: settings.maxBodyBytes, idleTimeoutMs: settings.idleTimeoutMs, timer: settings.timer, recovery };
  const api = new Hono();
  api.route(TEAM_PREFIX, teamRoutes(gate, limits));
  api.notFound(() => jsonError(404, `Nothing here: the team API is ${TEAM_PREFIX}/*.`));
  // To answer()'s catch, which prints the error's name only (hono's default would print its message).
  api.onError((error) => {
    throw error;
  });
  return {
    api,
    async forward(request, to, hooks) {
      // The person's token checked, the key put in its place, a PATCH's answer recorded (team/admission.ts).
      const admitted = await admitTeamRequest(request, gate, limits);
      if ("answered" in admitted) {
        request.body?.cancel().catch(() => undefined);
        return admitted.answered;
      }
      const headers = { ...to.headers, authorization: gate.serviceAuthorization };
      return admitted.settle(await forward(admitted.request, { ...to, headers }, settings, hooks));
    },
  };
}

async function answer(request: Request, settings: ResolvedConfig, team: TeamMode | null): Promise<Response> {
  const log = new RequestLog(settings, request.headers.get("authorization"));
  const head = headOfRequest(request);
  let response: Response;
  try {
    // Awaited only when a check of admission's is asynchronous: a refusal goes out before the body is touched.
    const pending = admit(head, settings, log.redact);
    const decision = pending instanceof Promise ? await pending : pending;
    if ("team" in decision) {
      response = await (team ? team.api.fetch(request) : toResponse(errorAnswer(404, "Nothing here.")));
      for (const [name, value] of Object.entries(decision.team.cors)) response.headers.set(name, value);
    } else if ("answer" in decision) {
      // Nothing of a refused request's body is read (its source is told to stop before it is asked for a byte).
      request.body?.cancel().catch(() => undefined);
      response = toResponse(decision.answer);
    } else {
      const hooks = { redact: log.redact, event: (what: string) => log.note(what) };
      response = await (team ? team.forward(request, decision.forward, hooks) : forward(request, decision.forward, settings, hooks));
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
