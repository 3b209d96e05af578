/**
 * The local identity provider's authorization-code flow with PKCE (src/idp/code-flow.ts), on a real socket, as
 * MSAL's sign-in window runs it: the page of people, the pick sending the window back with a code, the code
 * swapped once for an access token the gateway's verifier accepts (with the person's roles) and an id token
 * carrying the nonce. A wrong verifier, a second use, another redirect URI or an unregistered one get nothing,
 * nor does a code past its minute. The provider's clock is a fixed one the tests move: nothing waits.
 */
import { createHash, randomBytes } from "node:crypto";
import { decodeJwt } from "jose";
import { tokenVerifier } from "../../src/gateway/team/tokens";
import { startIdp, type RunningIdp } from "../../src/idp/server";
import { teamConfigFor } from "../gateway/team/team-fixture";

const ADDIN = "http://127.0.0.1:3000";
const REDIRECT = `${ADDIN}/sign-in-done.html`;
const START = Date.UTC(2026, 4, 1, 10, 0, 0);
let clock = START;
let idp: RunningIdp;

beforeAll(async () => {
  idp = await startIdp({ allowOrigins: [ADDIN], now: () => clock });
});
beforeEach(() => {
  clock = START;
});
afterAll(() => idp.close());

/** Opens the sign-in page for a fresh verifier; answers the verifier and the page's link for `who`. */
async function signInPage(who: string, redirectUri = REDIRECT) {
  const verifier = randomBytes(32).toString("base64url");
  const config = (await (await fetch(`${idp.baseUrl}/${idp.tenant}/v2.0/.well-known/openid-configuration`)).json()) as { authorization_endpoint: string; token_endpoint: string };
  const q = new URLSearchParams({
    client_id: "addin-client", response_type: "code", redirect_uri: redirectUri, scope: `${idp.audience}/access_as_user openid profile`,
    state: "s-1", nonce: "n-1", code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", response_mode: "fragment",
  });
  const page = await fetch(`${config.authorization_endpoint}?${q}`);
  const html = await page.text();
  const link = new RegExp(`id="as-${who}" href="([^"]+)"`).exec(html)?.[1].replaceAll("&amp;", "&");
  return { verifier, page, link, tokenUrl: config.token_endpoint };
}

async function codeFor(who: string) {
  const opened = await signInPage(who);
  const back = await fetch(`${idp.baseUrl}${opened.link}`, { redirect: "manual" });
  expect(back.status).toBe(302);
  const location = back.headers.get("location")!;
  expect(location.startsWith(`${REDIRECT}#`)).toBe(true);
  const answer = new URLSearchParams(location.split("#")[1]);
  expect(answer.get("state")).toBe("s-1");
  return { ...opened, code: answer.get("code")! };
}

const swap = (tokenUrl: string, fields: Record<string, string>) =>
  fetch(tokenUrl, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

test("a person picked on the sign-in page gets, for the code and its verifier, a token the gateway accepts with their roles, and an id token with the nonce", async () => {
  const { code, verifier, tokenUrl } = await codeFor("alex");
  const answer = await swap(tokenUrl, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: "addin-client", redirect_uri: REDIRECT });
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { access_token: string; id_token: string; token_type: string; client_info: string };
  expect(body.token_type).toBe("Bearer");
  const verified = await tokenVerifier(teamConfigFor(idp))(`Bearer ${body.access_token}`, clock);
  expect(verified).toMatchObject({ ok: true, person: { name: "Alex Approver", username: "alex@demo.example", roles: ["approver"] } });
  expect(decodeJwt(body.id_token)).toMatchObject({ aud: "addin-client", nonce: "n-1", preferred_username: "alex@demo.example", iss: idp.issuer, iat: START / 1000 });
  expect(decodeJwt(body.access_token)).toMatchObject({ iat: START / 1000, exp: START / 1000 + 3600 });
  // A code is good once.
  const again = await swap(tokenUrl, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: "addin-client", redirect_uri: REDIRECT });
  expect(again.status).toBe(400);
});

test("a wrong verifier, another client or redirect URI get no token; an unregistered redirect URI gets no page", async () => {
  for (const change of [{ code_verifier: randomBytes(32).toString("base64url") }, { client_id: "other-client" }, { redirect_uri: `${ADDIN}/elsewhere.html` }]) {
    const { code, verifier, tokenUrl } = await codeFor("pat");
    const answer = await swap(tokenUrl, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: "addin-client", redirect_uri: REDIRECT, ...change });
    expect([answer.status, ((await answer.json()) as { error: string }).error]).toEqual([400, "invalid_grant"]);
  }
  const foreign = await signInPage("pat", "https://attacker.example/catch");
  expect([foreign.page.status, foreign.link]).toEqual([400, undefined]);
});

test("a code is good for one minute from the pick: swapped at 60 s it gives tokens of that moment, a millisecond later it is refused", async () => {
  const form = (code: string, verifier: string) => ({ grant_type: "authorization_code", code, code_verifier: verifier, client_id: "addin-client", redirect_uri: REDIRECT });
  const inTime = await codeFor("alex");
  clock = START + 60_000;
  const answer = await swap(inTime.tokenUrl, form(inTime.code, inTime.verifier));
  expect(answer.status).toBe(200);
  expect(decodeJwt(((await answer.json()) as { access_token: string }).access_token).iat).toBe(START / 1000 + 60);

  clock = START;
  const late = await codeFor("pat");
  clock = START + 60_001;
  const refused = await swap(late.tokenUrl, form(late.code, late.verifier));
  expect([refused.status, await refused.json()]).toEqual([400, { error: "invalid_grant", error_description: "The code is unknown, used or expired." }]);
});
