/**
 * Verifies a person's token against the tenant's published keys (jose): the signature with a key of the JWKS
 * and an allowed algorithm (RS256/ES256: never `none`, never an HMAC keyed with the public key), the issuer
 * of the token's own tenant, a tenant in the allowed list, the audience, and the expiry against the gateway's
 * clock. What comes out is the person and their roles; the token itself is kept nowhere.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { ALGORITHMS, type Role, type TeamConfig } from "./config";

export interface Person {
  /** The token's `oid` (Entra ID's object id), or its `sub`: stable across sessions. */
  id: string;
  name: string;
  /** `preferred_username`: the sign-in name (e-mail shaped). */
  username: string;
  tenant: string;
  roles: Role[];
}

type Verified = { ok: true; person: Person } | { ok: false; status: 401 | 403; message: string };

export type TokenVerifier = (authorization: string | null, now: number) => Promise<Verified>;

/** A verifier for this configuration; the JWKS is fetched when first needed and cached by jose. */
export function tokenVerifier(config: TeamConfig): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(config.jwksUrl));
  const issuers = config.tenants.map((tenant) => config.issuer.replace("{tenantid}", tenant));
  return async (authorization, now) => {
    const match = /^Bearer +(\S+)$/i.exec(authorization ?? "");
    if (!match) return { ok: false, status: 401, message: "Sign in: team mode needs Authorization: Bearer <token> from your work account, not an API key." };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1], jwks, {
        issuer: issuers, audience: config.audience, algorithms: [...ALGORITHMS], currentDate: new Date(now), requiredClaims: ["exp", "tid"],
      }));
    } catch (error) {
      return { ok: false, status: 401, message: refusal(error) };
    }
    const tenant = String(payload.tid);
    // The issuer is one of the allowed tenants'; it must be this token's own.
    if (!config.tenants.includes(tenant) || payload.iss !== config.issuer.replace("{tenantid}", tenant)) {
      return { ok: false, status: 401, message: "This token is of a tenant this gateway does not serve." };
    }
    const person = personOf(payload, tenant, config);
    if (person.roles.length === 0) return { ok: false, status: 403, message: `${person.username || person.id} is signed in but has no role in team mode; ask an administrator.` };
    return { ok: true, person };
  };
}

function personOf(payload: JWTPayload, tenant: string, config: TeamConfig): Person {
  const text = (name: string) => (typeof payload[name] === "string" ? (payload[name] as string) : "");
  const id = text("oid") || String(payload.sub ?? "");
  const username = text("preferred_username");
  const groups = Array.isArray(payload.groups) ? payload.groups.filter((g): g is string => typeof g === "string") : [];
  const roles = new Set<Role>([
    ...(config.people?.[id.toLowerCase()] ?? []),
    ...(username ? config.people?.[username.toLowerCase()] ?? [] : []),
    ...groups.flatMap((group) => config.groups?.[group] ?? []),
  ]);
  return { id, name: text("name") || username || id, username, tenant, roles: [...roles].sort() };
}

/** Why a token was refused, in a sentence; never the token. */
function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "Your sign-in has expired: sign in again.";
  if (error instanceof errors.JWTClaimValidationFailed) return `The token was not issued for this gateway (${error.claim} does not match).`;
  if (error instanceof errors.JWKSNoMatchingKey) return "The token is signed with a key the tenant does not publish.";
  if (error instanceof errors.JOSEAlgNotAllowed) return "The token's signature algorithm is not accepted (RS256 or ES256 only).";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The token's signature does not verify.";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JOSEError && error.code === "ERR_JOSE_GENERIC") return "The tenant's signing keys could not be fetched; try again.";
  return "The token could not be verified: sign in again.";
}
