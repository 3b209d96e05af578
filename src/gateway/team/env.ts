/**
 * Team mode's configuration from environment variables (a deployment's settings and secret store):
 * TEAM_TENANTS (comma separated), TEAM_AUDIENCE, TEAM_ISSUER and TEAM_JWKS_URL (Entra ID's by default, the
 * tenant filled in), TEAM_ROLES (JSON: {"people": {"ana@contoso.com": ["approver"]}, "groups": {"<group id>":
 * ["preparer"]}}), SPEND_ENTERPRISE_ID, SPEND_ENTERPRISE_KEY (the secret), TEAM_BATCH_VALIDITY_HOURS, and
 * TEAM_CLIENT_ID (the add-in's app registration, shown at /team/v1/sign-in).
 */
import type { Role, TeamConfig } from "./config";
import { TeamError } from "./errors";

const ENTRA_ISSUER = "https://login.microsoftonline.com/{tenantid}/v2.0";
const ENTRA_JWKS = "https://login.microsoftonline.com/{tenantid}/discovery/v2.0/keys";

/** Reads the variables; TeamError naming the variable when one is missing or malformed. */
export function teamConfigFromEnv(env: Record<string, string | undefined>): TeamConfig {
  const need = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new TeamError("config", `${name} is not set (docs/team-mode.md, "Deploying").`);
    return value;
  };
  const tenants = need("TEAM_TENANTS").split(/[\s,]+/).filter((t) => t !== "");
  let roles: { people?: Record<string, Role[]>; groups?: Record<string, Role[]> } = {};
  try {
    roles = JSON.parse(env.TEAM_ROLES ?? "{}") as typeof roles;
  } catch {
    throw new TeamError("config", "TEAM_ROLES is not JSON: {\"people\": {\"name@example.com\": [\"approver\"]}, \"groups\": {\"<group id>\": [\"preparer\"]}}.");
  }
  const hours = env.TEAM_BATCH_VALIDITY_HOURS === undefined ? undefined : Number(env.TEAM_BATCH_VALIDITY_HOURS);
  if (hours !== undefined && !(hours > 0)) throw new TeamError("config", "TEAM_BATCH_VALIDITY_HOURS must be a number of hours above 0.");
  const clientId = env.TEAM_CLIENT_ID?.trim();
  return {
    tenants,
    issuer: env.TEAM_ISSUER?.trim() || ENTRA_ISSUER,
    audience: need("TEAM_AUDIENCE"),
    // One tenant's keys: Entra ID publishes the same keys at every tenant's address, and a test IdP has one.
    jwksUrl: (env.TEAM_JWKS_URL?.trim() || ENTRA_JWKS).replace("{tenantid}", tenants[0] ?? ""),
    people: Object.fromEntries(Object.entries(roles.people ?? {}).map(([who, r]) => [who.toLowerCase(), r])),
    groups: roles.groups ?? {},
    enterpriseId: need("SPEND_ENTERPRISE_ID"),
    enterpriseKey: need("SPEND_ENTERPRISE_KEY"),
    ...(hours === undefined ? {} : { batchValidityMs: Math.round(hours * 3_600_000) }),
    ...(clientId ? { signIn: { clientId, authority: `https://login.microsoftonline.com/${tenants[0]}`, scopes: [`${need("TEAM_AUDIENCE")}/access_as_user`] } } : {}),
  };
}
