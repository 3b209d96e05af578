/**
 * Spec section 5: `Authorization: Api-Key <key>`; a key belongs to one enterprise; otherwise 403. The header
 * is read as RFC 9110 section 11 writes credentials: the scheme in any case, then one or more spaces (1*SP),
 * then the key; white space around the value is the HTTP parser's to drop (OWS). A tab or any other white
 * space between scheme and key, or inside the key, is not that syntax: 403 (docs/sandbox.md).
 */
import type { MiddlewareHandler } from "hono";
import type { SandboxEnv } from "./env";
import { ApiError } from "./http-errors";
import type { Store } from "./store";

const SCHEME = /^Api-Key +(\S+)$/i;

/** Messages never repeat the key that was sent. */
export function authenticate(store: Store): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) {
      throw new ApiError(403, "Authentication credentials were not provided: send the header Authorization: Api-Key <key>.");
    }
    const match = SCHEME.exec(header);
    if (!match) throw new ApiError(403, "Unsupported authorization scheme: send Authorization: Api-Key <key>.");
    const enterprise = store.enterpriseByKey(match[1]);
    if (!enterprise) throw new ApiError(403, "Invalid API key.");
    const requested = c.req.param("enterprise_id");
    if (requested !== enterprise.id) {
      throw new ApiError(403, `This API key does not belong to enterprise ${String(requested).slice(0, 64)}.`);
    }
    c.set("enterprise", enterprise);
    await next();
  };
}
