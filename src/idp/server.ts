/**
 * A local identity provider for the sandbox and the workbench, so team mode runs offline: it signs tokens for
 * the demo people (RS256, a key made at start) shaped like Entra ID's v2 access tokens (`tid`, `oid`,
 * `preferred_username`, `groups`), and publishes its public key at a JWKS address as a tenant does.
 * Paths follow Entra ID's: `/{tenant}/v2.0` is the issuer, `/{tenant}/discovery/v2.0/keys` the JWKS,
 * `POST /{tenant}/oauth2/v2.0/token` with `{"username": …}` answers `{"access_token": …}` (no password:
 * a demo, on loopback only), and MSAL's authorization-code flow runs against `/{tenant}/oauth2/v2.0/authorize`
 * and the same token path (code-flow.ts). MSAL accepts only an https authority, and a discovery document whose
 * issuer is on the authority's host: given `tls`, the provider also listens on https (`secureBaseUrl`, the
 * authority to name), with the same keys, and its issuer is the https address.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Server } from "node:net";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { codeFlow, type FlowAnswer } from "./code-flow";
import { DEMO_AUDIENCE, DEMO_PEOPLE, DEMO_TENANT, type DemoPerson } from "./people";

export interface RunningIdp {
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  /** `https://127.0.0.1:PORT` when started with `tls`: the authority MSAL is given is this and the tenant. */
  secureBaseUrl?: string;
  tenant: string;
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** A token for a demo person by sign-in name, valid `lifetimeS` seconds from `now` (ms). */
  tokenFor(username: string, options?: { now?: number; lifetimeS?: number }): Promise<string>;
  /** Signs any claims with the published key (tests forge the tokens an attacker would). */
  sign(claims: JWTPayload, header?: { kid?: string }): Promise<string>;
  close(): Promise<void>;
}

const KID = "demo-key-1";

/** Starts the identity provider on 127.0.0.1 (`port` 0: any free port; `now`, the clock in ms, Date.now unless a test fixes it). */
export async function startIdp(options: { port?: number; allowOrigins?: readonly string[]; tls?: { key: string; cert: string }; now?: () => number } = {}): Promise<RunningIdp> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: "RS256", use: "sig" };
  const servers: Server[] = [createServer((req, res) => void route(req, res, baseUrl))];
  if (options.tls) servers.push(createHttpsServer(options.tls, (req, res) => void route(req, res, secureBaseUrl ?? baseUrl)));
  const ports = await Promise.all(servers.map((server, i) => new Promise<number>((resolve) => server.listen(i === 0 ? options.port ?? 0 : 0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))));
  const baseUrl = `http://127.0.0.1:${ports[0]}`;
  const secureBaseUrl = options.tls ? `https://127.0.0.1:${ports[1]}` : undefined;
  // MSAL accepts a discovery document only when its issuer has the authority's scheme, host and port: with tls,
  // the https address is the issuer (the JWKS is published on both listeners, the gateway reads the http one).
  const issuer = `${secureBaseUrl ?? baseUrl}/${DEMO_TENANT}/v2.0`;
  const jwksUrl = `${baseUrl}/${DEMO_TENANT}/discovery/v2.0/keys`;

  const sign = (claims: JWTPayload, header: { kid?: string } = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "JWT", kid: header.kid ?? KID }).sign(privateKey);
  const tokenFor = (username: string, { now = (options.now ?? Date.now)(), lifetimeS = 3600 } = {}) => {
    const person = DEMO_PEOPLE.find((p) => p.username === username.toLowerCase());
    if (!person) return Promise.reject(new IdpError(`No demo person signs in as ${username.slice(0, 80)}.`));
    return sign(claimsOf(person, issuer, Math.floor(now / 1000), lifetimeS));
  };

  const flow = codeFlow({ issuer, allowOrigins: options.allowOrigins ?? [], now: options.now, sign, accessClaims: (person, nowS) => claimsOf(person, issuer, nowS, 3600) });

  async function route(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const origin = req.headers.origin;
    if (origin && (options.allowOrigins ?? []).includes(origin)) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      // MSAL names its library and request id in headers of its own: those it asks for are allowed.
      res.setHeader("Access-Control-Allow-Headers", String(req.headers["access-control-request-headers"] ?? "content-type").slice(0, 1000));
    }
    const url = new URL(req.url ?? "/", base);
    const path = url.pathname;
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    if (req.method === "GET" && path === `/${DEMO_TENANT}/discovery/v2.0/keys`) return json(res, 200, { keys: [jwk] });
    if (req.method === "GET" && path === `/${DEMO_TENANT}/v2.0/.well-known/openid-configuration`) {
      const tenantBase = `${base}/${DEMO_TENANT}/oauth2/v2.0`;
      return json(res, 200, {
        issuer, jwks_uri: jwksUrl, authorization_endpoint: `${tenantBase}/authorize`, token_endpoint: `${tenantBase}/token`,
        response_modes_supported: ["query", "fragment"], code_challenge_methods_supported: ["S256"], id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (req.method === "GET" && (path === flow.authorizePath || path === `${flow.authorizePath}/choose`)) return send(res, flow.authorize(url));
    if (req.method === "GET" && path === "/people") return json(res, 200, DEMO_PEOPLE.map(({ name, username, groups }) => ({ name, username, groups })));
    if (req.method === "POST" && path === `/${DEMO_TENANT}/oauth2/v2.0/token`) {
      const text = await readBody(req);
      if (String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) return send(res, await flow.token(new URLSearchParams(text ?? "")));
      const username = usernameOf(text);
      const token = username === undefined ? undefined : await tokenFor(username).catch(() => undefined);
      if (token === undefined) return json(res, 400, { error: "invalid_grant", error_description: "Name a demo person: {\"username\": \"pat@demo.example\"}." });
      return json(res, 200, { token_type: "Bearer", access_token: token, expires_in: 3600 });
    }
    json(res, 404, { error: "not_found" });
  }

  return {
    baseUrl, secureBaseUrl, tenant: DEMO_TENANT, issuer, jwksUrl, audience: DEMO_AUDIENCE, tokenFor, sign,
    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as Server & { closeAllConnections(): void }).closeAllConnections();
    }))).then(() => undefined),
  };
}

function claimsOf(person: DemoPerson, issuer: string, nowS: number, lifetimeS: number): JWTPayload {
  return {
    iss: issuer, aud: DEMO_AUDIENCE, tid: DEMO_TENANT, oid: person.oid, sub: person.oid, name: person.name,
    preferred_username: person.username, groups: [...person.groups], iat: nowS, nbf: nowS, exp: nowS + lifetimeS, ver: "2.0",
  };
}

/** The request's body as text, at most 8 KiB (undefined above). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let text = "";
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 8192) return undefined;
  }
  return text;
}

function usernameOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const username = (parsed as { username?: unknown } | null)?.username;
    return typeof username === "string" ? username : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, answer: FlowAnswer): void {
  if ("redirect" in answer) return void res.writeHead(302, { Location: answer.redirect, "Cache-Control": "no-store" }).end();
  res.writeHead(answer.status, { "Content-Type": answer.type, "Cache-Control": "no-store" });
  res.end(answer.body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

/** A request the identity provider cannot answer (an unknown demo person). */
class IdpError extends Error {
  override readonly name = "IdpError";
}
