/**
 * The identity provider's authorization-code flow with PKCE, the one MSAL's sign-in window runs against Entra
 * ID: GET `/{tenant}/oauth2/v2.0/authorize` shows the demo people to pick from (Entra ID's sign-in page, with no
 * password: a loopback demo), and sends the window back to the redirect URI with a one-time code; POST
 * `/{tenant}/oauth2/v2.0/token` (form: grant_type=authorization_code, code, code_verifier, redirect_uri,
 * client_id) answers the access token for the gateway and an id token for the add-in, once per code, only when
 * SHA-256 of the verifier is the challenge the window was opened with. Redirect URIs are accepted on the
 * allowed origins only (the add-in's), so a code never goes to another page.
 */
import { createHash, randomUUID } from "node:crypto";
import type { JWTPayload } from "jose";
import { DEMO_AUDIENCE, DEMO_PEOPLE, DEMO_TENANT, type DemoPerson } from "./people";

interface Asked { clientId: string; redirectUri: string; state: string; nonce: string; challenge: string; scope: string; mode: "query" | "fragment" }

interface CodeFlowDeps {
  issuer: string;
  allowOrigins: readonly string[];
  sign: (claims: JWTPayload) => Promise<string>;
  accessClaims: (person: DemoPerson, nowS: number) => JWTPayload;
  /** The clock (ms) for the codes' lifetime and the tokens' times; tests pass a fixed one. */
  now?: () => number;
}

/** An answer: a status, a content type and a body, or a redirect. */
export type FlowAnswer = { status: number; type: string; body: string } | { redirect: string };

const CODE_LIFETIME_MS = 60_000;
const b64url = (text: string) => Buffer.from(text).toString("base64url");
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const oauthError = (error: string, description: string): FlowAnswer => ({ status: 400, type: "application/json", body: JSON.stringify({ error, error_description: description }) });

/** The flow's two endpoints over one memory of what was asked and the codes given. */
export function codeFlow(deps: CodeFlowDeps) {
  const now = deps.now ?? Date.now;
  const asked = new Map<string, Asked>();
  const codes = new Map<string, { asked: Asked; person: DemoPerson; until: number }>();
  const base = `/${DEMO_TENANT}/oauth2/v2.0/authorize`;

  /** GET authorize (the people to pick) and GET authorize/choose (the pick: back to the add-in with a code). */
  function authorize(url: URL): FlowAnswer {
    if (url.pathname === `${base}/choose`) return choose(url.searchParams);
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!URL.canParse(redirectUri) || !deps.allowOrigins.includes(new URL(redirectUri).origin)) {
      return { status: 400, type: "text/plain; charset=utf-8", body: "This redirect URI is not registered for the demo tenant." };
    }
    if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("client_id")) {
      return oauthError("invalid_request", "The demo tenant answers the authorization-code flow with PKCE (S256) only.");
    }
    const id = randomUUID();
    asked.set(id, {
      clientId: q.get("client_id")!, redirectUri, state: q.get("state") ?? "", nonce: q.get("nonce") ?? "", challenge: q.get("code_challenge")!,
      scope: q.get("scope") ?? "", mode: q.get("response_mode") === "query" ? "query" : "fragment",
    });
    const links = DEMO_PEOPLE.map((p) => `<li><a id="as-${escapeHtml(p.username.split("@")[0])}" href="${base}/choose?request=${id}&amp;username=${encodeURIComponent(p.username)}">${escapeHtml(p.name)} (${escapeHtml(p.username)})</a></li>`);
    return { status: 200, type: "text/html; charset=utf-8", body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in: demo tenant</title></head><body><h1>Sign in to the demo tenant</h1><p>Pick who you are (a loopback demo: no password).</p><ul>${links.join("")}</ul></body></html>` };
  }

  function choose(q: URLSearchParams): FlowAnswer {
    const request = asked.get(q.get("request") ?? "");
    const person = DEMO_PEOPLE.find((p) => p.username === q.get("username"));
    if (!request || !person) return oauthError("invalid_request", "This sign-in was not started here, or was finished already.");
    asked.delete(q.get("request") ?? "");
    const code = randomUUID();
    codes.set(code, { asked: request, person, until: now() + CODE_LIFETIME_MS });
    const answer = new URLSearchParams({ code, state: request.state, client_info: clientInfo(person) });
    return { redirect: `${request.redirectUri}${request.mode === "query" ? "?" : "#"}${answer}` };
  }

  /** POST token with grant_type=authorization_code: the code once, for the client and redirect URI it was given to, with its verifier. */
  async function token(form: URLSearchParams): Promise<FlowAnswer> {
    const given = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    if (form.get("grant_type") !== "authorization_code" || !given || now() > given.until) return oauthError("invalid_grant", "The code is unknown, used or expired.");
    const { asked: request, person } = given;
    if (form.get("client_id") !== request.clientId || form.get("redirect_uri") !== request.redirectUri) return oauthError("invalid_grant", "The code was given to another client or redirect URI.");
    const verifier = form.get("code_verifier") ?? "";
    if (createHash("sha256").update(verifier).digest("base64url") !== request.challenge) return oauthError("invalid_grant", "The code verifier does not match the challenge (PKCE).");
    const nowS = Math.floor(now() / 1000);
    const idClaims = {
      iss: deps.issuer, aud: request.clientId, tid: DEMO_TENANT, oid: person.oid, sub: person.oid, name: person.name, preferred_username: person.username,
      nonce: request.nonce, iat: nowS, nbf: nowS, exp: nowS + 3600, ver: "2.0",
    };
    const body = {
      token_type: "Bearer", scope: request.scope || `${DEMO_AUDIENCE}/access_as_user`, expires_in: 3600, ext_expires_in: 3600,
      access_token: await deps.sign({ ...deps.accessClaims(person, nowS), scp: "access_as_user" }), id_token: await deps.sign(idClaims), client_info: clientInfo(person),
    };
    return { status: 200, type: "application/json", body: JSON.stringify(body) };
  }

  return { authorize, token, authorizePath: base };
}

/** Entra ID's client_info: the person's object id and tenant, base64url JSON. */
const clientInfo = (person: DemoPerson) => b64url(JSON.stringify({ uid: person.oid, utid: DEMO_TENANT }));
