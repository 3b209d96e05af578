/**
 * `npm run team`: team mode on this machine, offline: the sandbox, the local identity provider (demo people
 * as viewer, preparer, approver) and the gateway in team mode holding the demo enterprise's key, its
 * database PGlite in .spend-data/team-db. Prints the addresses and how to get a demo person's token.
 *
 * `npm run team -- serve`: the gateway in team mode as deployed, configured by environment variables
 * (docs/team-mode.md, "Deploying"): GATEWAY_TARGET, GATEWAY_ALLOW_ORIGINS, the TEAM_* variables, the key in
 * SPEND_ENTERPRISE_KEY, DATABASE_URL for a PostgreSQL server shared by several gateways (else PGlite in
 * TEAM_DATA_DIR, default .spend-data/team-db). PORT (default 8080).
 *
 * `npm run team -- audit-check [--database-url URL | --data DIR] [--head SEQ:HASH]`: walks the audit chain;
 * exit 1 naming each edited, removed or inserted row (or a head that is no longer there).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startGateway } from "../src/gateway/node-server";
import { checkAuditChain } from "../src/gateway/team/audit";
import { openPglite, openPostgres } from "../src/gateway/team/databases";
import { teamConfigFromEnv } from "../src/gateway/team/env";
import { createTeamGate } from "../src/gateway/team/gate";
import type { SqlClient } from "../src/gateway/team/sql";
import { DEMO_GROUPS, DEMO_PEOPLE } from "../src/idp/people";
import { startIdp } from "../src/idp/server";
import { startSandbox } from "../src/sandbox/server";

const ROOT = join(__dirname, "..");
const DEFAULT_DATA = join(ROOT, ".spend-data", "team-db");

function openDatabase(url: string | undefined, dir: string | undefined): Promise<SqlClient> {
  if (url) return openPostgres(url);
  const data = dir ?? DEFAULT_DATA;
  mkdirSync(data, { recursive: true });
  return openPglite(data);
}

async function local(): Promise<void> {
  const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  mkdirSync(join(ROOT, ".spend-data"), { recursive: true });
  const sandbox = await startSandbox({ port: port("SPEND_SANDBOX_PORT", 3100), dataFile: join(ROOT, ".spend-data", "team-sandbox.json") });
  const [enterprise] = sandbox.manifest().enterprises;
  const origins = (process.env.GATEWAY_ALLOW_ORIGINS ?? "http://localhost:3000,https://localhost:3000").split(",");
  const idp = await startIdp({ port: port("SPEND_IDP_PORT", 3200), allowOrigins: origins });
  const db = await openDatabase(process.env.DATABASE_URL, process.env.TEAM_DATA_DIR);
  const gate = await createTeamGate({
    tenants: [idp.tenant], issuer: idp.issuer.replace(idp.tenant, "{tenantid}"), audience: idp.audience, jwksUrl: idp.jwksUrl,
    groups: { [DEMO_GROUPS.viewer]: ["viewer"], [DEMO_GROUPS.preparer]: ["preparer"], [DEMO_GROUPS.approver]: ["approver"] },
    enterpriseId: enterprise.id, enterpriseKey: enterprise.api_key,
  }, db);
  const gateway = await startGateway({ target: sandbox.baseUrl, allowOrigins: origins, team: gate, log: () => undefined }, { port: port("SPEND_GATEWAY_PORT", 8080) });
  process.stdout.write([
    "Spend Sync team mode (local, offline)",
    `  gateway   ${gateway.baseUrl}   (the add-in's base URL: ${gateway.baseUrl}; team API at ${gateway.baseUrl}/team/v1)`,
    `  sign-in   ${idp.baseUrl}   tenant ${idp.tenant}`,
    `  sandbox   ${sandbox.baseUrl}   enterprise ${enterprise.id} (its key stays in the gateway)`,
    "  people    " + DEMO_PEOPLE.map((p) => `${p.username}`).join(", "),
    `  a token   curl -s -X POST ${idp.baseUrl}/${idp.tenant}/oauth2/v2.0/token -d '{"username":"pat@demo.example"}'`,
    "  (Ctrl+C to stop)",
    "",
  ].join("\n"));
  const stop = async () => {
    await gateway.close();
    await db.close();
    await idp.close();
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

async function serve(): Promise<void> {
  const db = await openDatabase(process.env.DATABASE_URL, process.env.TEAM_DATA_DIR);
  const gate = await createTeamGate(teamConfigFromEnv(process.env), db);
  const gateway = await startGateway({
    target: process.env.GATEWAY_TARGET ?? "", allowOrigins: (process.env.GATEWAY_ALLOW_ORIGINS ?? "").split(/[\s,]+/).filter((o) => o !== ""),
    ...(process.env.GATEWAY_PUBLIC_URL ? { publicUrl: process.env.GATEWAY_PUBLIC_URL } : {}), team: gate,
  }, { port: Number(process.env.PORT ?? 8080), host: process.env.HOST ?? "127.0.0.1" });
  process.stdout.write(`Spend Sync gateway, team mode: ${gateway.baseUrl}\n`);
  const stop = () => void gateway.close().then(() => db.close()).then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

async function auditCheck(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { "database-url": { type: "string" }, data: { type: "string" }, head: { type: "string" } } });
  const db = await openDatabase(values["database-url"] ?? process.env.DATABASE_URL, values.data ?? process.env.TEAM_DATA_DIR);
  try {
    const check = await checkAuditChain(db);
    const problems = [...check.problems];
    if (values.head) {
      const [seq, hash] = values.head.split(":");
      const { rows } = await db.query<{ hash: string }>("SELECT hash FROM team_audit WHERE seq = $1", [Number(seq)]);
      if (rows[0]?.hash !== hash) problems.push(`Row ${seq} no longer has the hash recorded earlier (${String(hash).slice(0, 12)}…): the log was cut or rewritten.`);
    }
    for (const problem of problems) process.stdout.write(`${problem}\n`);
    const head = check.head ? `head ${check.head.seq}:${check.head.hash}` : "empty";
    process.stdout.write(problems.length === 0 ? `Audit chain intact: ${check.rows} rows, ${head}.\n` : `Audit chain BROKEN: ${problems.length} problem(s) in ${check.rows} rows.\n`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    await db.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === "audit-check") void auditCheck(rest).then((code) => process.exit(code), (error: Error) => {
  process.stderr.write(`audit-check: ${error.message}\n`);
  process.exit(2);
});
else if (command === "serve") void serve().catch((error: Error) => {
  process.stderr.write(`team: ${error.message}\n`);
  process.exit(2);
});
else void local();
