/**
 * Batches on PGlite, through a real gateway in front of the real sandbox (a counting proxy between them):
 * who may prepare and decide, and that a PATCH reaches the service only from an approved batch, unchanged,
 * within its validity, and once.
 */
import { generateKeyPair, SignJWT } from "jose";
import { createHmac } from "node:crypto";
import type { RunningGateway } from "../../../src/gateway/node-server";
import type { SqlClient } from "../../../src/gateway/team/sql";
import { batchOfApproved, call, openPglite, teamWorld, type TeamWorld } from "./team-harness";

let world: TeamWorld;
let db: SqlClient;
let gateway: RunningGateway;
const tokens: Record<"vera" | "pat" | "alex" | "sam", string> = { vera: "", pat: "", alex: "", sam: "" };

beforeAll(async () => {
  world = await teamWorld();
  db = await openPglite();
  ({ gateway } = await world.startGateway(db));
  for (const who of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[who] = await world.idp.tokenFor(`${who}@demo.example`);
}, 120_000);
afterAll(async () => {
  await world.close();
  await db.close();
});

const at = (path: string, method = "GET", options: Parameters<typeof call>[3] = {}) => call(gateway.baseUrl, method, path, options);

async function prepared(count: number, skip: number, by: string = tokens.pat, via = gateway.baseUrl) {
  const batch = await batchOfApproved(world, count, skip);
  const answer = await call(via, "POST", "/team/v1/batches", { token: by, body: batch });
  expect(answer.status).toBe(201);
  return { batch, id: answer.json.id as string, hash: answer.json.hash as string };
}

test("a preparer's batch is frozen with who, when, its totals and a hash; a viewer or an approver cannot prepare", async () => {
  const batch = await batchOfApproved(world, 3, 0);
  for (const who of [tokens.vera, tokens.alex]) {
    const refused = await at("/team/v1/batches", "POST", { token: who, body: batch });
    expect(refused.status).toBe(403);
  }
  expect((await at("/team/v1/batches?state=pending", "GET", { token: tokens.alex })).json.results).toEqual([]);
  const answer = await at("/team/v1/batches", "POST", { token: tokens.pat, body: batch });
  expect(answer.status).toBe(201);
  expect(answer.json).toMatchObject({ state: "pending", preparer: { name: "Pat Preparer" }, decision: null });
  expect(answer.json.hash).toMatch(/^[0-9a-f]{64}$/);
  expect(answer.json.requests.map((r: { body: string }) => r.body)).toEqual(batch.requests.map((r) => r.body));
  const currencies = new Set(batch.rows.map((r) => (r as { currency: string }).currency));
  expect(answer.json.totals.map((t: { currency: string }) => t.currency).sort()).toEqual([...currencies].sort());
  expect(answer.json.totals.reduce((n: number, t: { count: number }) => n + t.count, 0)).toBe(3);
  const listed = await at("/team/v1/batches?state=pending", "GET", { token: tokens.alex });
  expect(listed.json.results.map((b: { id: string }) => b.id)).toEqual([answer.json.id]);
});

test("totals that do not add up from the rows, or a row saying another state than its request, are refused", async () => {
  const batch = await batchOfApproved(world, 2, 0);
  const wrongTotals = await at("/team/v1/batches", "POST", { token: tokens.pat, body: { ...batch, totals: [{ state: "accounted", currency: "USD", count: 2, amount: "1.00" }] } });
  expect(wrongTotals.status).toBe(400);
  const rows = batch.rows.map((r, i) => (i === 1 ? { ...(r as object), to: "paid" } : r));
  expect((await at("/team/v1/batches", "POST", { token: tokens.pat, body: { ...batch, rows } })).status).toBe(400);
});

test("the preparer never approves their own batch, even holding the approver role; nothing is sent before approval", async () => {
  const { batch, id, hash } = await prepared(2, 10, tokens.sam);
  const own = await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.sam, body: { hash, comment: "ok" } });
  expect(own).toMatchObject({ status: 403, json: { error: "You prepared this batch: another approver must decide it." } });
  const early = await at(batch.requests[0].path, "PATCH", { token: tokens.sam, body: batch.requests[0].body, batch: id });
  expect(early).toMatchObject({ status: 403, json: { error: "This batch is not approved yet: nothing was sent." } });
  expect(world.proxy.patches.get(batch.requests[0].path)).toBeUndefined();
  expect((await at(`/team/v1/batches/${id}`, "GET", { token: tokens.vera })).json.state).toBe("pending");
});

test("approved once, for the hash the approver saw; each PATCH forwarded once, a repeat answered from the record", async () => {
  const { batch, id, hash } = await prepared(3, 20);
  const stale = await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.alex, body: { hash: "0".repeat(64), comment: "ok" } });
  expect(stale.status).toBe(409);
  const approved = await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.alex, body: { hash, comment: "Checked against the ERP" } });
  expect(approved.json).toMatchObject({ state: "approved", decision: { by: { name: "Alex Approver" }, comment: "Checked against the ERP" } });
  expect((await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.sam, body: { hash, comment: "again" } })).status).toBe(409);

  const first = [];
  for (const r of batch.requests) first.push(await at(r.path, "PATCH", { token: tokens.pat, body: r.body, batch: id }));
  expect(first.map((a) => a.status)).toEqual([200, 200, 200]);
  expect(first.map((a) => a.json.state)).toEqual(["accounted", "accounted", "accounted"]);
  expect(first.every((a) => a.headers.get("x-spend-replayed") === null)).toBe(true);
  // The answer was lost on the way to the add-in: its retry gets the recorded answer, and the service sees nothing.
  const again = await at(batch.requests[1].path, "PATCH", { token: tokens.pat, body: batch.requests[1].body, batch: id });
  expect(again).toMatchObject({ status: 200, text: first[1].text });
  expect(again.headers.get("x-spend-replayed")).toBe("true");
  expect(batch.requests.map((r) => world.proxy.patches.get(r.path))).toEqual([1, 1, 1]);
  // Replaying the whole batch sends nothing either.
  for (const r of batch.requests) expect((await at(r.path, "PATCH", { token: tokens.pat, body: r.body, batch: id })).status).toBe(200);
  expect(batch.requests.map((r) => world.proxy.patches.get(r.path))).toEqual([1, 1, 1]);
  const read = await at(`/team/v1/batches/${id}`, "GET", { token: tokens.vera });
  expect(read.json.requests.map((r: { state: string; answer: { status: number } }) => [r.state, r.answer.status])).toEqual([["answered", 200], ["answered", 200], ["answered", 200]]);
});

test("a body changed after approval, a path not in the batch, or a PATCH naming no batch is refused and never sent", async () => {
  const { batch, id, hash } = await prepared(2, 30);
  await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.alex, body: { hash, comment: "ok" } });
  const [r0, r1] = batch.requests;
  const changed = r0.body.replace("accounted", "paid");
  for (const body of [changed, `${r0.body} `, r0.body.replace("ACC-", "ACC-9")]) {
    const answer = await at(r0.path, "PATCH", { token: tokens.pat, body, batch: id });
    expect(answer).toMatchObject({ status: 409, json: { error: "This PATCH's body differs from the one approved: nothing was sent. Prepare a new batch." } });
  }
  const elsewhere = (await batchOfApproved(world, 1, 40)).requests[0];
  expect((await at(elsewhere.path, "PATCH", { token: tokens.pat, body: elsewhere.body, batch: id })).status).toBe(403);
  expect((await at(`${r0.path}?x=1`, "PATCH", { token: tokens.pat, body: r0.body, batch: id })).status).toBe(403);
  expect((await at(r1.path, "PATCH", { token: tokens.pat, body: r1.body })).json.error).toMatch(/^A PATCH is sent only in an approved batch/);
  expect((await at(r1.path, "PATCH", { token: tokens.pat, body: r1.body, batch: crypto.randomUUID() })).status).toBe(403);
  // Another preparer holding the batch id cannot send it either.
  expect((await at(r1.path, "PATCH", { token: tokens.sam, body: r1.body, batch: id })).status).toBe(403);
  for (const path of [r0.path, r1.path, elsewhere.path]) expect(world.proxy.patches.get(path)).toBeUndefined();
  // The approved body still goes, once.
  expect((await at(r0.path, "PATCH", { token: tokens.pat, body: r0.body, batch: id })).status).toBe(200);
  expect(world.proxy.patches.get(r0.path)).toBe(1);
});

test("a rejected batch sends nothing; a rejection needs a comment and an approver", async () => {
  const { batch, id } = await prepared(1, 50);
  expect((await at(`/team/v1/batches/${id}/reject`, "POST", { token: tokens.alex, body: {} })).status).toBe(400);
  expect((await at(`/team/v1/batches/${id}/reject`, "POST", { token: tokens.vera, body: { comment: "no" } })).status).toBe(403);
  const rejected = await at(`/team/v1/batches/${id}/reject`, "POST", { token: tokens.alex, body: { comment: "Wrong period" } });
  expect(rejected.json).toMatchObject({ state: "rejected", decision: { comment: "Wrong period" } });
  const answer = await at(batch.requests[0].path, "PATCH", { token: tokens.pat, body: batch.requests[0].body, batch: id });
  expect(answer).toMatchObject({ status: 403, json: { error: "This batch was rejected: nothing was sent." } });
  expect(world.proxy.patches.get(batch.requests[0].path)).toBeUndefined();
});

test("reads need a signed-in member: a token is swapped for the enterprise key, which no answer or log line shows", async () => {
  const path = `${world.sandbox.prefix}/subsidiaries/${world.sandbox.enterprise.subsidiaries[0]}/expenses/?page_size=5`;
  expect((await at(path)).status).toBe(401);
  expect((await at(path, "GET", { token: "not-a-token" })).status).toBe(401);
  const withKey = await fetch(`${gateway.baseUrl}${path}`, { headers: { Authorization: `Api-Key ${world.sandbox.enterprise.api_key}` } });
  expect(withKey.status).toBe(401);
  const read = await at(path, "GET", { token: tokens.vera });
  expect(read.status).toBe(200);
  expect(read.json.results).toHaveLength(5);
  const other = await at(`/public/v1/enterprises/${world.sandbox.other.id}/corporate-cards/`, "GET", { token: tokens.vera });
  expect(other.status).toBe(403);
  expect((await at("/team/v1/me", "GET", { token: tokens.vera })).json).toMatchObject({ name: "Vera Viewer", roles: ["viewer"] });
  // What the add-in needs before anyone signed in is public, and holds no secret.
  const signIn = await at("/team/v1/sign-in");
  expect(signIn).toMatchObject({ status: 200, json: { tenants: [world.idp.tenant], audience: world.idp.audience } });
  expect(signIn.text.includes(world.sandbox.enterprise.api_key)).toBe(false);
  const key = world.sandbox.enterprise.api_key;
  expect(world.logs.length).toBeGreaterThan(10);
  expect(world.logs.filter((line) => line.includes(key))).toEqual([]);
  expect(read.text.includes(key) || JSON.stringify([...read.headers]).includes(key)).toBe(false);
});

test("a PATCH whose answer the service lost is answered from the record (the gateway's 502), never sent again; the record shows it applied", async () => {
  const { batch, id, hash } = await prepared(1, 60);
  await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.alex, body: { hash, comment: "ok" } });
  const [r] = batch.requests;
  world.proxy.losePatchAnswers = 1;
  const lost = await at(r.path, "PATCH", { token: tokens.pat, body: r.body, batch: id });
  expect(lost.status).toBe(502);
  const retry = await at(r.path, "PATCH", { token: tokens.pat, body: r.body, batch: id });
  expect(retry).toMatchObject({ status: 502, text: lost.text });
  expect(world.proxy.patches.get(r.path)).toBe(1);
  // What the add-in's read-before-retry sees: the change was applied once.
  expect((await at(r.path, "GET", { token: tokens.pat })).json.state).toBe("accounted");
});

test("past its validity a batch can be neither approved nor sent; a PATCH already answered is still answered from the record", async () => {
  // This gateway's clock is a fixed base time, moved on by `shift`; its tokens are stamped at that base.
  const BASE = Date.UTC(2026, 10, 20, 9, 0, 0);
  let shift = 0;
  const { gateway: later } = await world.startGateway(db, { now: () => BASE + shift });
  const long = { now: BASE, lifetimeS: 3 * 24 * 3600 };
  const pat = await world.idp.tokenFor("pat@demo.example", long);
  const alex = await world.idp.tokenFor("alex@demo.example", long);
  const via = (path: string, method: string, options: Parameters<typeof call>[3]) => call(later.baseUrl, method, path, options);
  const one = await prepared(1, 70, pat, later.baseUrl);
  const two = await prepared(2, 80, pat, later.baseUrl);
  await via(`/team/v1/batches/${two.id}/approve`, "POST", { token: alex, body: { hash: two.hash, comment: "ok" } });
  const [a, b] = two.batch.requests;
  expect((await via(a.path, "PATCH", { token: pat, body: a.body, batch: two.id })).status).toBe(200);
  shift = 24 * 3600 * 1000 + 1000;
  const late = await via(`/team/v1/batches/${one.id}/approve`, "POST", { token: alex, body: { hash: one.hash, comment: "ok" } });
  expect(late).toMatchObject({ status: 409, json: { error: "This batch has expired: the preparer must prepare it again." } });
  const stale = await via(b.path, "PATCH", { token: pat, body: b.body, batch: two.id });
  expect(stale).toMatchObject({ status: 403, json: { error: "This batch's validity has passed: nothing was sent. Prepare it again." } });
  expect((await via(a.path, "PATCH", { token: pat, body: a.body, batch: two.id })).headers.get("x-spend-replayed")).toBe("true");
  expect([world.proxy.patches.get(a.path), world.proxy.patches.get(b.path)]).toEqual([1, undefined]);
  const expired = (await via(`/team/v1/batches?state=expired`, "GET", { token: alex })).json.results.map((x: { id: string }) => x.id);
  expect(expired).toEqual(expect.arrayContaining([one.id, two.id]));
  // Expiry is the clock's: back at the base time the same batch is pending again (nothing stored changed).
  shift = 0;
  const pending = (await via(`/team/v1/batches?state=pending`, "GET", { token: alex })).json.results.map((x: { id: string }) => x.id);
  expect(pending).toContain(one.id);
});

test("the add-in's page may ask for the team API and send a batched PATCH (CORS), and read that an answer was replayed", async () => {
  const origin = "http://127.0.0.1:3000";
  const preflight = (method: string, headers: string) => fetch(`${gateway.baseUrl}/team/v1/batches`, {
    method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
  });
  const post = await preflight("POST", "authorization, content-type");
  expect(post.status).toBe(204);
  expect(post.headers.get("access-control-allow-methods")).toBe("GET, HEAD, PATCH, POST");
  const patch = await preflight("PATCH", "authorization, content-type, x-spend-batch");
  expect(patch.headers.get("access-control-allow-headers")).toBe("authorization, content-type, accept, x-spend-batch");
  expect((await preflight("PUT", "authorization")).status).toBe(403);
  const me = await fetch(`${gateway.baseUrl}/team/v1/me`, { headers: { Origin: origin, Authorization: `Bearer ${tokens.vera}` } });
  expect(me.headers.get("access-control-expose-headers")).toBe("Retry-After, X-Spend-Replayed, WWW-Authenticate");
});

test("through the gateway, a forged or foreign token reads nothing and sends nothing, even naming an approved batch", async () => {
  const { batch, id, hash } = await prepared(1, 90);
  await at(`/team/v1/batches/${id}/approve`, "POST", { token: tokens.alex, body: { hash, comment: "ok" } });
  const [r] = batch.requests;
  const good = JSON.parse(Buffer.from(tokens.pat.split(".")[1], "base64url").toString()) as Record<string, unknown>;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  // The expired token's times are the real one's issue time less two hours: no second reading of the clock.
  const s = good.iat as number;
  const jwks = (await (await fetch(world.idp.jwksUrl)).json()) as { keys: { kid: string }[] };
  const hsHead = b64({ alg: "HS256", typ: "JWT", kid: jwks.keys[0].kid });
  const rogue = await generateKeyPair("RS256");
  const forged: Record<string, string> = {
    expired: await world.idp.sign({ ...good, iat: s - 7200, nbf: s - 7200, exp: s - 3600 }),
    "other tenant": await world.idp.sign({ ...good, tid: "11111111-2222-4333-8444-555555555555" }),
    "other audience": await world.idp.sign({ ...good, aud: "api://another-app" }),
    "alg none": `${b64({ alg: "none" })}.${b64(good)}.`,
    "HS256 with the public key": `${hsHead}.${b64(good)}.${createHmac("sha256", JSON.stringify(jwks.keys[0])).update(`${hsHead}.${b64(good)}`).digest("base64url")}`,
    "key not in the JWKS": await new SignJWT(good).setProtectedHeader({ alg: "RS256", kid: jwks.keys[0].kid }).sign(rogue.privateKey),
  };
  const readPath = `${world.sandbox.prefix}/subsidiaries/${world.sandbox.enterprise.subsidiaries[0]}/expenses/?page_size=1`;
  const statuses = [];
  for (const [name, token] of Object.entries(forged)) {
    const read = await at(readPath, "GET", { token });
    const sent = await at(r.path, "PATCH", { token, body: r.body, batch: id });
    statuses.push([name, read.status, sent.status, sent.headers.get("www-authenticate")]);
  }
  expect(statuses).toEqual(Object.keys(forged).map((name) => [name, 401, 401, 'Bearer realm="spend-sync-gateway"']));
  expect(world.proxy.patches.get(r.path)).toBeUndefined();
  // The genuine token still sends it.
  expect((await at(r.path, "PATCH", { token: tokens.pat, body: r.body, batch: id })).status).toBe(200);
});
