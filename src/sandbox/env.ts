/** Hono's typing for the sandbox's routes. */
import type { HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import type { EnterpriseRec } from "./model";

export type SandboxEnv = {
  Bindings: HttpBindings;
  Variables: { enterprise: EnterpriseRec };
};

export type SandboxApp = Hono<SandboxEnv>;

/** Prefix of every enterprise-scoped path. */
export const ENTERPRISE = "/public/v1/enterprises/:enterprise_id";

/** Adds the envelope fields of single resources and of most lists (spec section 1). */
export function ok<T extends object>(body: T): T & { status: 200; error: "" } {
  return { ...body, status: 200, error: "" };
}
