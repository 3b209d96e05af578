/**
 * The gateway as a web-standard fetch handler: `createGateway(config).fetch(request)` runs unchanged on Node
 * (through @hono/node-server, see node-server.ts), Cloudflare Workers, AWS Lambda (hono/aws-lambda) and
 * Azure Functions (azure-functions.ts). It uses only Request, Response, Headers, fetch, URL, AbortController,
 * TextEncoder/Decoder, btoa and setTimeout: no Node module.
 */
import { Hono, type Context } from "hono";
import { loggedPath, scrubbedEntry, type AccessLogEntry } from "./access-log";
import { resolveConfig, type GatewayConfig } from "./config";
import { addCorsHeaders, answerPreflight, preflightOf, refuseOrigin } from "./cors";
import { forward } from "./forward";
import { jsonError } from "./http-errors";
import { FORWARDED_PREFIX, HEALTH_PATH } from "./limits";
import { redactorFor, requestSecrets } from "./redact";
import { admitTeamRequest } from "./team/admission";
import { teamRoutes } from "./team/routes";
import { refuseKeyInUrl } from "./url-keys";

type GatewayEnv = { Variables: { redact: (text: string) => string; event: (event: string) => void } };

/** Builds the gateway; throws GatewayConfigError (naming the field) for a configuration it cannot run with. */
export function createGateway(config: GatewayConfig): Hono<GatewayEnv> {
  const settings = resolveConfig(config);
  const app = new Hono<GatewayEnv>();

  // Outermost: every request gets exactly one log line, refusals included, and one more if the gateway cuts
  // its answer after the head went out. The redactor is built from this request's Authorization header and
  // lives only as long as the request.
  app.use(async (c, next) => {
    const redact = redactorFor(requestSecrets(c.req.raw.headers.get("authorization"), settings.knownKeys));
    c.set("redact", redact);
    const log = (entry: AccessLogEntry) => settings.log(scrubbedEntry(entry, redact));
    const started = settings.now();
    let event: string | undefined;
    let logged: AccessLogEntry | null = null;
    c.set("event", (what) => {
      if (logged) log({ ...logged, ms: Math.max(0, Math.round(settings.now() - started)), event: what });
      else event = what;
    });
    await next();
    const origin = c.req.raw.headers.get("origin");
    logged = {
      time: new Date(started).toISOString(),
      method: c.req.raw.method,
      path: loggedPath(new URL(c.req.url), redact),
      status: c.res.status,
      ms: Math.max(0, Math.round(settings.now() - started)),
      ...(origin === null ? {} : { origin }),
    };
    log(event === undefined ? logged : { ...logged, event });
  });

  app.use(async (c, next) => {
    const preflight = preflightOf(c.req.raw);
    if (preflight) return answerPreflight(c.req.raw, preflight, settings.allowOrigins, settings.team !== null);
    const refused = refuseOrigin(c.req.raw, settings.allowOrigins);
    if (refused) return refused;
    await next();
    addCorsHeaders(c.res.headers, c.req.raw, settings.team !== null);
  });

  // Inside CORS, so an allowed page can read why; before anything that could forward it.
  app.use(async (c, next) => refuseKeyInUrl(new URL(c.req.url), c.get("redact")) ?? next());

  // Liveness only: it does not call the service (that would need a key), so a 200 means the gateway runs.
  app.get(HEALTH_PATH, () => new Response(JSON.stringify({ status: "ok" }), { headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } }));

  const limits = { maxBodyBytes: settings.maxBodyBytes, idleTimeoutMs: settings.idleTimeoutMs, timer: settings.timer };
  const team = settings.team;
  if (team) app.route("/team/v1", teamRoutes(team, limits));
  const forwardHere = async (c: Context<GatewayEnv>) => {
    const hooks = { redact: c.get("redact"), event: c.get("event") };
    if (!team) return forward(c.req.raw, settings, hooks);
    // Team mode: the person's token checked, the key put in its place, a PATCH's answer recorded (admission.ts).
    const admitted = await admitTeamRequest(c.req.raw, team, limits);
    if ("answered" in admitted) return admitted.answered;
    return admitted.settle(await forward(admitted.request, settings, hooks));
  };
  app.all(FORWARDED_PREFIX, forwardHere);
  app.all(`${FORWARDED_PREFIX}/*`, forwardHere);

  app.notFound(() => jsonError(404, `Nothing here: the gateway forwards ${FORWARDED_PREFIX}/* and answers ${HEALTH_PATH}.`));
  app.onError((error, c) => {
    // The name only: a message could quote the request. (The redactor is the first thing every request gets.)
    console.error(`gateway: unexpected ${error.name} on ${c.req.raw.method.slice(0, 20)} ${loggedPath(new URL(c.req.url), c.get("redact"))}`);
    return jsonError(500, "Unexpected gateway error.");
  });
  return app;
}
