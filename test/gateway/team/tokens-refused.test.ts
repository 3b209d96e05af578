/**
 * Token verification against the local identity provider's JWKS, fetched over a real socket: what a forged,
 * stale or foreign token gets. Each refusal is a token that differs from an accepted one in one thing only.
 */
import { generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { createHmac } from "node:crypto";
import { tokenVerifier, type TokenVerifier } from "../../../src/gateway/team/tokens";
import { DEMO_GROUPS, DEMO_PEOPLE } from "../../../src/idp/people";
import { startIdp, type RunningIdp } from "../../../src/idp/server";
import { teamConfigFor } from "./team-fixture";

let idp: RunningIdp;
let verify: TokenVerifier;
const NOW = Date.UTC(2026, 10, 20, 9, 0, 0);
const pat = DEMO_PEOPLE[1];

beforeAll(async () => {
  idp = await startIdp();
  verify = tokenVerifier(teamConfigFor(idp));
});
afterAll(() => idp.close());

function claims(overrides: JWTPayload = {}): JWTPayload {
  const s = Math.floor(NOW / 1000);
  return {
    iss: idp.issuer, aud: idp.audience, tid: idp.tenant, oid: pat.oid, sub: pat.oid, name: pat.name,
    preferred_username: pat.username, groups: [DEMO_GROUPS.preparer], iat: s, nbf: s, exp: s + 600, ...overrides,
  };
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

test("a token of the tenant, for this audience, signed with the published key, signs the person in with their groups' roles", async () => {
  const verified = await verify(`Bearer ${await idp.sign(claims())}`, NOW);
  expect(verified).toEqual({ ok: true, person: { id: pat.oid, name: "Pat Preparer", username: "pat@demo.example", tenant: idp.tenant, roles: ["preparer"] } });
  const both = await verify(`Bearer ${await idp.sign(claims({ groups: [DEMO_GROUPS.preparer, DEMO_GROUPS.approver] }))}`, NOW);
  expect(both.ok && both.person.roles).toEqual(["approver", "preparer"]);
});

test("an expired token is refused, one second after its exp", async () => {
  const token = await idp.sign(claims());
  expect((await verify(`Bearer ${token}`, NOW + 599_000)).ok).toBe(true);
  expect(await verify(`Bearer ${token}`, NOW + 601_000)).toEqual({ ok: false, status: 401, message: "Your sign-in has expired: sign in again." });
});

test("a token of another tenant is refused, whether its issuer names that tenant or ours", async () => {
  const other = "11111111-2222-4333-8444-555555555555";
  const own = await verify(`Bearer ${await idp.sign(claims({ tid: other, iss: idp.issuer.replace(idp.tenant, other) }))}`, NOW);
  expect(own).toMatchObject({ ok: false, status: 401 });
  const mixed = await verify(`Bearer ${await idp.sign(claims({ tid: other }))}`, NOW);
  expect(mixed).toEqual({ ok: false, status: 401, message: "This token is of a tenant this gateway does not serve." });
});

test("a token for another audience is refused", async () => {
  const verified = await verify(`Bearer ${await idp.sign(claims({ aud: "api://another-app" }))}`, NOW);
  expect(verified).toEqual({ ok: false, status: 401, message: "The token was not issued for this gateway (aud does not match)." });
});

test("an unsigned token (alg none) is refused", async () => {
  const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims())}.`;
  expect(await verify(`Bearer ${unsigned}`, NOW)).toMatchObject({ ok: false, status: 401 });
});

test("a token signed with HS256 keyed by the published public key is refused", async () => {
  const jwks = (await (await fetch(idp.jwksUrl)).json()) as { keys: { kid: string; n: string }[] };
  const head = b64({ alg: "HS256", typ: "JWT", kid: jwks.keys[0].kid });
  const body = b64(claims());
  // The attack: the public key's bytes (as JWK JSON, or its modulus) used as the HMAC secret.
  for (const secret of [JSON.stringify(jwks.keys[0]), jwks.keys[0].n]) {
    const mac = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
    expect(await verify(`Bearer ${head}.${body}.${mac}`, NOW)).toEqual({ ok: false, status: 401, message: "The token's signature algorithm is not accepted (RS256 or ES256 only)." });
  }
});

test("a token signed with a key the JWKS does not publish is refused, with its kid or the published one", async () => {
  const rogue = await generateKeyPair("RS256");
  for (const kid of ["rogue-key", "demo-key-1"]) {
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: "RS256", kid }).sign(rogue.privateKey);
    const verified = await verify(`Bearer ${token}`, NOW);
    expect(verified).toMatchObject({ ok: false, status: 401 });
  }
});

test("an API key, a missing header or a token without a role is not a sign-in", async () => {
  expect(await verify("Api-Key sk_live_abc", NOW)).toMatchObject({ ok: false, status: 401 });
  expect(await verify(null, NOW)).toMatchObject({ ok: false, status: 401 });
  const noRole = await verify(`Bearer ${await idp.sign(claims({ groups: [] }))}`, NOW);
  expect(noRole).toEqual({ ok: false, status: 403, message: "pat@demo.example is signed in but has no role in team mode; ask an administrator." });
});
