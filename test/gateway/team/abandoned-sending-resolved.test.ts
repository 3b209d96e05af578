/**
 * A gateway that dies between forwarding a PATCH and recording its answer (simulated on real sockets: its
 * database refuses the answer's recording, the way a killed process never writes it) leaves the request
 * `sending`. Another gateway on the same database resolves it on a repeat, never by forwarding blindly: once
 * the dead gateway's deadline for an answer has passed, it reads the record with the key; a record holding the
 * PATCH's values is recorded as applied (the repeat answered from it, nothing sent), one that does not is
 * recorded as not applied and sent once more. The audit log says which. The clock is a fixed base time.
 */
import type { RunningGateway } from "../../../src/gateway/node-server";
import type { Sql, SqlClient } from "../../../src/gateway/team/sql";
import { batchOfApproved, call, openPglite, teamWorld, type TeamWorld } from "./team-harness";

const BASE = Date.UTC(2026, 10, 20, 9, 0, 0);
/** The forwarder's default deadline for a whole answer (120 s) and the recording margin (5 s). */
const ABANDONED_AFTER_MS = 125_000;

let world: TeamWorld;
let db: SqlClient;
let shift = 0;
/** Gateway `dying` records no answer while `failRecords` > 0; `heir` shares its database. */
let dying: RunningGateway;
let heir: RunningGateway;
let failRecords = 0;
const tokens = { pat: "", alex: "" };

/** The database as the dying gateway uses it: the answer's recording fails while `failRecords` says so. */
function failingRecords(real: SqlClient): SqlClient {
  const guard = (sql: Sql): Sql => ({
    query: (text, params) => {
      if (failRecords > 0 && text.includes("answer_status = $3")) {
        failRecords--;
        return Promise.reject(new RangeError("the gateway died here"));
      }
      return sql.query(text, params);
    },
  });
  return { ...guard(real), transaction: (work) => real.transaction((tx) => work(guard(tx))), close: () => real.close() };
}

beforeAll(async () => {
  // The dying gateway's own line for the fault injected (its error's name only).
  jest.spyOn(console, "error").mockImplementation(() => undefined);
  world = await teamWorld();
  db = await openPglite();
  const now = () => BASE + shift;
  ({ gateway: dying } = await world.startGateway(failingRecords(db), { now, inFlightWaitMs: 200 }));
  ({ gateway: heir } = await world.startGateway(db, { now, inFlightWaitMs: 200 }));
  const long = { now: BASE, lifetimeS: 3 * 24 * 3600 };
  tokens.pat = await world.idp.tokenFor("pat@demo.example", long);
  tokens.alex = await world.idp.tokenFor("alex@demo.example", long);
}, 120_000);
afterAll(async () => {
  await world.close();
  await db.close();
});
beforeEach(() => {
  shift = 0;
});

async function approvedBatch(skip: number) {
  const batch = await batchOfApproved(world, 1, skip);
  const prepared = await call(heir.baseUrl, "POST", "/team/v1/batches", { token: tokens.pat, body: batch });
  expect(prepared.status).toBe(201);
  const { id, hash } = prepared.json as { id: string; hash: string };
  expect((await call(heir.baseUrl, "POST", `/team/v1/batches/${id}/approve`, { token: tokens.alex, body: { hash, comment: "ok" } })).status).toBe(200);
  return { id, request: batch.requests[0] };
}

const reads = (path: string) => world.proxy.seen.filter((line) => line === `GET ${path}`).length;
const auditOf = async (id: string) => (await db.query<{ action: string; detail: string }>("SELECT action, detail FROM team_audit WHERE batch_id = $1 ORDER BY seq", [id])).rows;
const recordOf = async (path: string) => (await world.sandbox.call("GET", path)).json as { state: string; accounted_id: string };

test("applied before the gateway died: while it could still be waiting a repeat gets 409 and nothing is read; after, the record is read, the PATCH recorded applied, nothing sent again", async () => {
  const { id, request: r } = await approvedBatch(0);
  failRecords = 1;
  const died = await call(dying.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id });
  expect(died.status).toBe(500);
  expect(world.proxy.patches.get(r.path)).toBe(1);
  expect((await recordOf(r.path)).state).toBe("accounted");
  const stuck = await call(heir.baseUrl, "GET", `/team/v1/batches/${id}`, { token: tokens.alex });
  expect(stuck.json.requests[0]).toMatchObject({ state: "sending", answer: null });

  // Within the dead gateway's deadline for an answer, it might still be waiting: no read, no send, 409.
  shift = ABANDONED_AFTER_MS - 1000;
  const early = await call(heir.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id });
  expect(early.status).toBe(409);
  expect(reads(r.path)).toBe(0);

  shift = ABANDONED_AFTER_MS + 1000;
  const resolved = await call(heir.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id });
  expect(resolved.status).toBe(200);
  expect(resolved.headers.get("x-spend-replayed")).toBe("true");
  expect(resolved.json).toMatchObject({ id: r.path.split("/").at(-2), state: "accounted", accounted_id: JSON.parse(r.body).accounted_id });
  expect(reads(r.path)).toBe(1);
  // Later repeats are answered from what was recorded: no second read, no send.
  expect((await call(heir.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id })).text).toBe(resolved.text);
  expect([world.proxy.patches.get(r.path), reads(r.path)]).toEqual([1, 1]);

  const read = await call(heir.baseUrl, "GET", `/team/v1/batches/${id}`, { token: tokens.alex });
  expect(read.json.requests[0]).toMatchObject({ state: "answered", answer: { status: 200 } });
  const audit = await auditOf(id);
  expect(audit.map((a) => a.action)).toEqual(["prepare", "approve", "forward", "resolve", "replay", "replay"]);
  expect(JSON.parse(audit[3].detail)).toMatchObject({ outcome: "applied (confirmed by reading the record)", path: r.path, repeatedBy: expect.stringMatching(/ Pat Preparer$/) });
});

test("not applied (the request never reached the service): recorded as not applied, then sent once by the repeat within the batch's validity", async () => {
  const { id, request: r } = await approvedBatch(5);
  failRecords = 1;
  world.proxy.dropPatchRequests = 1;
  expect((await call(dying.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id })).status).toBe(500);
  expect((await recordOf(r.path)).state).toBe("approved");

  shift = ABANDONED_AFTER_MS + 1000;
  const sent = await call(heir.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id });
  expect(sent.status).toBe(200);
  expect(sent.headers.get("x-spend-replayed")).toBeNull();
  expect((await recordOf(r.path)).state).toBe("accounted");
  // Reached the proxy twice (the dropped one and this), read once before the second.
  expect([world.proxy.patches.get(r.path), reads(r.path)]).toEqual([2, 1]);
  expect((await call(heir.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id })).headers.get("x-spend-replayed")).toBe("true");
  expect(world.proxy.patches.get(r.path)).toBe(2);

  const audit = await auditOf(id);
  expect(audit.map((a) => a.action)).toEqual(["prepare", "approve", "forward", "resolve", "forward", "answer", "replay"]);
  expect(JSON.parse(audit[3].detail).outcome).toBe("not applied (the record does not hold the PATCH's values): it may be sent again");
});

test("past the batch's validity a request found not applied is recorded so and not sent", async () => {
  const { id, request: r } = await approvedBatch(10);
  failRecords = 1;
  world.proxy.dropPatchRequests = 1;
  expect((await call(dying.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id })).status).toBe(500);
  shift = 24 * 3600 * 1000 + 1000;
  const late = await call(heir.baseUrl, "PATCH", r.path, { token: tokens.pat, body: r.body, batch: id });
  expect(late).toMatchObject({ status: 403, json: { error: "This batch's validity has passed: nothing was sent. Prepare it again." } });
  expect([world.proxy.patches.get(r.path), (await recordOf(r.path)).state]).toEqual([1, "approved"]);
  expect((await auditOf(id)).map((a) => a.action)).toEqual(["prepare", "approve", "forward", "resolve"]);
});
