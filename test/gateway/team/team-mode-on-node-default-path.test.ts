/**
 * Team mode on the Node server as the CLI starts it (no handler named, real sockets, the real sandbox behind a
 * counting proxy): every request to the service passes team admission. The Node server's default handler is
 * the fast path, which has no team admission; a team gateway runs on the fetch handler instead
 * (node-server.ts), and refuses to start when asked for the fast path.
 */
import { generateKeyPair, SignJWT, decodeJwt } from "jose";
import { GatewayConfigError } from "../../../src/gateway/config";
import type { RunningGateway } from "../../../src/gateway/node-server";
import type { SqlClient } from "../../../src/gateway/team/sql";
import { call, openPglite, teamWorld, type TeamWorld } from "./team-harness";

let world: TeamWorld;
let db: SqlClient;
let gateway: RunningGateway;

beforeAll(async () => {
  world = await teamWorld();
  db = await openPglite();
  ({ gateway } = await world.startGateway(db));
}, 120_000);
afterAll(async () => {
  await world.close();
  await db.close();
});

/** Pat's own claims, signed with a key the identity provider never published, under its key id. */
async function forgedToken(): Promise<string> {
  const rogue = await generateKeyPair("RS256");
  const claims = decodeJwt(await world.idp.tokenFor("pat@demo.example"));
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "demo-key-1" }).sign(rogue.privateKey);
}

test("on the default handler, a forged token is refused 401 on a read and a PATCH, and neither reaches the service", async () => {
  const expenses = `${world.sandbox.prefix}/subsidiaries/${world.sandbox.enterprise.subsidiaries[0]}/expenses/`;
  const before = world.proxy.seen.length;
  const forged = await forgedToken();
  const read = await call(gateway.baseUrl, "GET", expenses, { token: forged });
  expect(read.status).toBe(401);
  expect(read.headers.get("www-authenticate")).toBe('Bearer realm="spend-sync-gateway"');
  const patch = await call(gateway.baseUrl, "PATCH", `${expenses}00000000-0000-4000-8000-000000000001/`, { token: forged, body: { state: "accounted" } });
  expect(patch.status).toBe(401);
  expect(world.proxy.seen.slice(before)).toEqual([]);
  // The same read with Pat's real token does reach it (so the proxy would have seen the forged one).
  const real = await call(gateway.baseUrl, "GET", expenses, { token: await world.idp.tokenFor("pat@demo.example") });
  expect(real.status).toBe(200);
  expect(world.proxy.seen.slice(before)).toEqual([`GET ${expenses}`]);
});

test("on the default handler, a preparer's PATCH outside a batch is refused 403 and never sent", async () => {
  const list = await world.sandbox.call("GET", `${world.sandbox.prefix}/subsidiaries/${world.sandbox.enterprise.subsidiaries[0]}/expenses/?state=approved`);
  const path = `${world.sandbox.prefix}/subsidiaries/${world.sandbox.enterprise.subsidiaries[0]}/expenses/${list.json.results[0].id}/`;
  const before = world.proxy.seen.length;
  const pat = await world.idp.tokenFor("pat@demo.example");
  const noBatch = await call(gateway.baseUrl, "PATCH", path, { token: pat, body: { state: "accounted", accounted_id: "ACC-1" } });
  expect(noBatch.status).toBe(403);
  expect(noBatch.json.error).toMatch(/only in an approved batch/);
  const unknownBatch = await call(gateway.baseUrl, "PATCH", path, { token: pat, batch: "0f0e0d0c-0b0a-4908-8706-050403020100", body: { state: "accounted", accounted_id: "ACC-1" } });
  expect(unknownBatch.status).toBe(403);
  expect(world.proxy.seen.slice(before)).toEqual([]);
  expect(world.proxy.patches.size).toBe(0);
  // The expense is as it was.
  expect((await world.sandbox.call("GET", path)).json.state).toBe("approved");
});

test("a team gateway asked for the fast path refuses to start, naming the handler", async () => {
  const started = world.startGateway(db, { listen: { handler: "fast" } });
  await expect(started).rejects.toThrow(GatewayConfigError);
  await expect(started).rejects.toMatchObject({ field: "handler", message: expect.stringMatching(/fetch handler only/) });
  // Named "fetch", it starts, and refuses a forged token all the same.
  const { gateway: viaFetch } = await world.startGateway(db, { listen: { handler: "fetch" } });
  const before = world.proxy.seen.length;
  const read = await call(viaFetch.baseUrl, "GET", `${world.sandbox.prefix}/subsidiaries/`, { token: await forgedToken() });
  expect(read.status).toBe(401);
  expect(world.proxy.seen.slice(before)).toEqual([]);
});
