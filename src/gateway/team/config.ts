/**
 * Team mode's configuration: who may sign in (the tenants, the token's issuer and audience, the keys' JWKS
 * address), what each person may do (roles by person or by group), the enterprise key the gateway alone holds,
 * and how long an approved batch stays valid. Checked once, when the gateway starts.
 */
import { TeamError } from "./errors";

export type Role = "viewer" | "preparer" | "approver";
const ROLES: readonly Role[] = ["viewer", "preparer", "approver"];

export interface TeamConfig {
  /** Directory (tenant) ids whose people may sign in; a token of any other tenant is refused. */
  tenants: readonly string[];
  /** The issuer each token must name, `{tenantid}` standing for its tenant (Entra ID: `https://login.microsoftonline.com/{tenantid}/v2.0`). */
  issuer: string;
  /** The audience each token must name: the gateway's app registration (`api://…` or its client id). */
  audience: string;
  /** Where the tenant publishes its signing keys (Entra ID: `https://login.microsoftonline.com/{tenantid}/discovery/v2.0/keys`). */
  jwksUrl: string;
  /** Roles by person: the token's `oid` (or `sub`), or its `preferred_username`, lower case. */
  people?: Readonly<Record<string, readonly Role[]>>;
  /** Roles by group: a group id of the token's `groups` claim. */
  groups?: Readonly<Record<string, readonly Role[]>>;
  /** The enterprise's API key, from the platform's secret store or environment; never sent to a browser or logged. */
  enterpriseKey: string;
  /** The enterprise the key belongs to: the only one whose paths are forwarded. */
  enterpriseId: string;
  /** How long a prepared batch may be approved and sent; default 24 hours. */
  batchValidityMs?: number;
  /** What the add-in needs to ask for a token (its client id and authority); shown at /team/v1/sign-in. */
  signIn?: { clientId: string; authority: string; scopes: readonly string[] };
}

export const DEFAULT_BATCH_VALIDITY_MS = 24 * 60 * 60 * 1000;

/** Signing algorithms a token may use: asymmetric only, so a public key can never sign one (no HS256, no `none`). */
export const ALGORITHMS = ["RS256", "ES256"] as const;

/** Throws TeamError (configuration) for what the gateway cannot run with. */
export function checkTeamConfig(config: TeamConfig): TeamConfig {
  if (config.tenants.length === 0) throw new TeamError("config", "Team mode needs at least one tenant id whose people may sign in.");
  if (!config.issuer.includes("://")) throw new TeamError("config", "Team mode needs the tokens' issuer, like https://login.microsoftonline.com/{tenantid}/v2.0.");
  if (config.audience.trim() === "") throw new TeamError("config", "Team mode needs the tokens' audience: the gateway's app registration.");
  if (!URL.canParse(config.jwksUrl)) throw new TeamError("config", "Team mode needs the address of the tenant's signing keys (JWKS).");
  if (config.enterpriseKey.trim() === "") throw new TeamError("config", "Team mode needs the enterprise key (SPEND_ENTERPRISE_KEY).");
  if (!/^[0-9a-f-]{36}$/i.test(config.enterpriseId)) throw new TeamError("config", "Team mode needs the enterprise id the key belongs to.");
  for (const roles of [...Object.values(config.people ?? {}), ...Object.values(config.groups ?? {})]) {
    for (const role of roles) if (!ROLES.includes(role)) throw new TeamError("config", `Unknown role '${String(role).slice(0, 40)}': roles are ${ROLES.join(", ")}.`);
  }
  return config;
}
