/**
 * Cloudflare Workers entry (`main` in wrangler.toml, docs/deploy.md): the configuration comes from the
 * Worker's variables (GATEWAY_TARGET, GATEWAY_ALLOW_ORIGINS, and the optional ones of configFromEnv). The access log goes to
 * console.log, which Workers Logs collects. Also a valid module for any platform that takes `export default { fetch }`.
 */
import { createGateway } from "./app";
import { configFromEnv, ENV_VARIABLE_OF, GatewayConfigError } from "./config";
import { jsonError } from "./http-errors";

let built: { key: string; gateway: ReturnType<typeof createGateway> } | undefined;

/** The variables configFromEnv reads. */
const ENV_VARIABLES = ["GATEWAY_TARGET", "GATEWAY_ALLOW_ORIGINS", "GATEWAY_TIMEOUT_MS", "GATEWAY_IDLE_TIMEOUT_MS", "GATEWAY_ANSWER_TIMEOUT_MS", "GATEWAY_PUBLIC_URL"];

/** One gateway per isolate, rebuilt only when the variables change. */
function gatewayFor(env: Record<string, unknown>): ReturnType<typeof createGateway> {
  const key = JSON.stringify(ENV_VARIABLES.map((name) => env[name]));
  if (built?.key !== key) built = { key, gateway: createGateway(configFromEnv(env)) };
  return built.gateway;
}

export default {
  async fetch(request: Request, env: Record<string, unknown> = {}): Promise<Response> {
    let gateway;
    try {
      gateway = gatewayFor(env);
    } catch (error) {
      // A configuration mistake: say which variable to fix (it names no secret) instead of an opaque 1101.
      const where = error instanceof GatewayConfigError ? `${ENV_VARIABLE_OF[error.field] ?? error.field}: ` : "";
      console.error(`gateway: ${where}${(error as Error).message}`);
      return jsonError(500, `The gateway is misconfigured: ${where}${(error as Error).message}`);
    }
    return gateway.fetch(request);
  },
};
