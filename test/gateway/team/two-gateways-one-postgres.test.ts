/**
 * Two gateways sharing one PostgreSQL server (started by the test, Debian's `postgresql`): approving the same
 * batch at once decides it once, and sending each of its PATCHes to both at once reaches the service once
 * per PATCH, both callers getting the same answer. The audit chain both extend stays one unbroken chain.
 */
import { checkAuditChain } from "../../../src/gateway/team/audit";
import { openPostgres } from "../../../src/gateway/team/databases";
import type { SqlClient } from "../../../src/gateway/team/sql";
import { findPostgres, startPostgres, type RunningPostgres } from "../../support/postgres-server";
import { batchOfApproved, call, teamWorld, type TeamWorld } from "./team-harness";

const binaries = findPostgres();
if (typeof binaries === "string") {
  console.warn(`\n\n*** SKIPPED: two gateways on one PostgreSQL: ${binaries}. ***\n\n`);
}
const describeWithPostgres = typeof binaries === "string" ? describe.skip : describe;

describeWithPostgres("two gateways, one PostgreSQL", () => {
  let world: TeamWorld;
  let postgres: RunningPostgres;
  const dbs: SqlClient[] = [];
  const bases: string[] = [];

  beforeAll(async () => {
    if (typeof binaries === "string") return;
    postgres = await startPostgres(binaries);
    world = await teamWorld();
    for (let i = 0; i < 2; i++) {
      const db = await openPostgres(postgres.url);
      dbs.push(db);
      bases.push((await world.startGateway(db)).gateway.baseUrl);
    }
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    for (const db of dbs) await db.close();
    await postgres?.stop();
  });

  test("a batch approved at both at once is decided once; each of its 25 PATCHes sent to both at once reaches the service once", async () => {
    const [pat, alex, sam] = await Promise.all(["pat", "alex", "sam"].map((who) => world.idp.tokenFor(`${who}@demo.example`)));
    const batch = await batchOfApproved(world, 25, 0);
    const prepared = await call(bases[0], "POST", "/team/v1/batches", { token: pat, body: batch });
    expect(prepared.status).toBe(201);
    const { id, hash } = prepared.json as { id: string; hash: string };

    const decisions = await Promise.all([
      call(bases[0], "POST", `/team/v1/batches/${id}/approve`, { token: alex, body: { hash, comment: "from the first" } }),
      call(bases[1], "POST", `/team/v1/batches/${id}/approve`, { token: sam, body: { hash, comment: "from the second" } }),
    ]);
    expect(decisions.map((d) => d.status).sort()).toEqual([200, 409]);

    const answers = await Promise.all(batch.requests.flatMap((r) => bases.map((base) => call(base, "PATCH", r.path, { token: pat, body: r.body, batch: id }))));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    for (let i = 0; i < 25; i++) expect(answers[2 * i].text).toBe(answers[2 * i + 1].text);
    expect(batch.requests.map((r) => world.proxy.patches.get(r.path))).toEqual(Array(25).fill(1));
    expect(answers.filter((a) => a.headers.get("x-spend-replayed") === "true")).toHaveLength(25);

    const chain = await checkAuditChain(dbs[1]);
    expect(chain.problems).toEqual([]);
    // prepare, approve, 25 forwards, 25 answers, 25 replays
    expect(chain.rows).toBe(1 + 1 + 25 * 3);
  }, 120_000);
});
