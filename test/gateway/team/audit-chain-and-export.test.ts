/**
 * The audit log through a real gateway on PGlite (in a folder, so the check command can open it after):
 * append-only by trigger, hash-chained so an edited or removed row is found by `npm run team -- audit-check`,
 * and each batch exportable as CSV agreeing request for request with what the preparer's PATCHes got.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningGateway } from "../../../src/gateway/node-server";
import { checkAuditChain } from "../../../src/gateway/team/audit";
import type { SqlClient } from "../../../src/gateway/team/sql";
import { ROOT } from "../../support/process";
import { batchOfApproved, call, openPglite, teamWorld, type TeamWorld } from "./team-harness";

let world: TeamWorld;
let db: SqlClient;
let gateway: RunningGateway;
let dir: string;
let pat: string, alex: string, vera: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "team-audit-"));
  world = await teamWorld();
  db = await openPglite(join(dir, "db"));
  ({ gateway } = await world.startGateway(db));
  [pat, alex, vera] = await Promise.all(["pat", "alex", "vera"].map((who) => world.idp.tokenFor(`${who}@demo.example`)));
  // (PGlite creating its database in a folder takes a while on a loaded machine.)
}, 120_000);
afterAll(async () => {
  await world.close();
  await db.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** RFC 4180 as auditCsv writes it: every field quoted, CRLF line ends. */
function parseCsv(text: string): string[][] {
  return text.trimEnd().split("\r\n").map((line) => [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1].replace(/""/g, '"')));
}

test("the CSV export has one line per request: preparer, approver, each request as sent and each answer as the preparer got it", async () => {
  const batch = await batchOfApproved(world, 4, 0);
  const { json } = await call(gateway.baseUrl, "POST", "/team/v1/batches", { token: pat, body: batch });
  await call(gateway.baseUrl, "POST", `/team/v1/batches/${json.id}/approve`, { token: alex, body: { hash: json.hash, comment: "=HYPERLINK(\"http://x\")" } });
  const got: string[] = [];
  for (const r of batch.requests.slice(0, 3)) got.push((await call(gateway.baseUrl, "PATCH", r.path, { token: pat, body: r.body, batch: json.id })).text);
  const csv = await call(gateway.baseUrl, "GET", `/team/v1/batches/${json.id}/audit.csv`, { token: vera });
  expect(csv.status).toBe(200);
  expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  const [header, ...lines] = parseCsv(csv.text);
  const col = (name: string) => header.indexOf(name);
  expect(lines).toHaveLength(4);
  expect(lines.map((l) => l[col("preparer")])).toEqual(Array(4).fill("Pat Preparer (5d0e6a1b-2222-4c3a-9f00-000000000002)"));
  expect(lines.map((l) => l[col("decided_by")])).toEqual(Array(4).fill("Alex Approver (5d0e6a1b-3333-4c3a-9f00-000000000003)"));
  // A comment shaped like a formula stays text when the export is opened in Excel.
  expect(lines[0][col("comment")]).toBe("'=HYPERLINK(\"http://x\")");
  expect(lines.map((l) => [l[col("path")], l[col("request_body")]])).toEqual(batch.requests.map((r) => [r.path, r.body]));
  expect(lines.map((l) => l[col("answer_status")])).toEqual(["200", "200", "200", ""]);
  expect(lines.map((l) => l[col("answer_body")])).toEqual([...got, ""]);
  expect(lines.slice(0, 3).every((l) => l[col("sent_at")] !== "" && l[col("answered_at")] >= l[col("sent_at")])).toBe(true);
  expect(lines[3][col("sent_at")]).toBe("");
  expect(csv.text.includes(world.sandbox.enterprise.api_key)).toBe(false);
});

test("the audit table refuses UPDATE and DELETE; a sign-in is a row; the chain checks intact", async () => {
  await expect(db.query("UPDATE team_audit SET actor = 'someone else' WHERE seq = 1")).rejects.toThrow(/append-only/);
  await expect(db.query("DELETE FROM team_audit WHERE seq = 1")).rejects.toThrow(/append-only/);
  // A sign-in (the add-in asks /me after each) is a row too, naming who and with what roles.
  await call(gateway.baseUrl, "GET", "/team/v1/me", { token: alex });
  const { rows } = await db.query<{ actor: string; action: string; detail: string }>("SELECT actor, action, detail FROM team_audit ORDER BY seq");
  expect(rows.map((r) => r.action)).toEqual(["prepare", "approve", "forward", "answer", "forward", "answer", "forward", "answer", "sign-in"]);
  expect(rows[8]).toEqual({ actor: "5d0e6a1b-3333-4c3a-9f00-000000000003 Alex Approver", action: "sign-in", detail: JSON.stringify({ username: "alex@demo.example", roles: ["approver"] }) });
  const chain = await checkAuditChain(db);
  expect(chain.problems).toEqual([]);
  expect(chain.rows).toBe(9);
});

test("one row edited (by an owner who disabled the trigger) or removed is named by the check", async () => {
  await db.query("ALTER TABLE team_audit DISABLE TRIGGER team_audit_append_only");
  await db.query("UPDATE team_audit SET detail = replace(detail, 'ACC-2', 'ACC-7') WHERE seq = 5");
  expect((await checkAuditChain(db)).problems).toEqual(["Row 5 was edited: its hash does not match its fields."]);
  await db.query("DELETE FROM team_audit WHERE seq = 7");
  expect((await checkAuditChain(db)).problems).toEqual([
    "Row 5 was edited: its hash does not match its fields.",
    "Row 8 follows row 6: 1 row(s) missing.",
    "Row 8 does not chain to the row before it (removed, inserted or edited rows).",
  ]);
});

test("npm run team -- audit-check exits 1 naming the broken rows", async () => {
  await gateway.close();
  await db.close();
  const run = spawnSync(join(ROOT, "node_modules", ".bin", "tsx"), [join(ROOT, "tools", "team.ts"), "audit-check", "--data", join(dir, "db")], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).toContain("Row 5 was edited: its hash does not match its fields.");
  expect(run.stdout).toContain("Row 8 follows row 6: 1 row(s) missing.");
  expect(run.stdout).toContain("Audit chain BROKEN: 3 problem(s) in 8 rows.");
}, 150_000);
