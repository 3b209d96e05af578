/**
 * The team API, under /team/v1 (docs/team-mode.md): who am I, prepare a batch, list and read batches,
 * approve or reject one, export its audit as CSV. Every route but /sign-in needs a signed-in member; preparing
 * needs the preparer role, deciding the approver role (and not having prepared the batch).
 */
import { Hono, type Context } from "hono";
import { readCapped } from "../body";
import { jsonError } from "../http-errors";
import { teamRefusal, type BodyLimits } from "./admission";
import { appendAudit, auditOfBatch } from "./audit";
import { parseBatchInput } from "./batch-input";
import { actorOf, decideBatch, listBatches, prepareBatch, readBatch, type BatchState } from "./batches";
import type { Role } from "./config";
import { auditCsv } from "./csv";
import type { TeamGate } from "./gate";
import type { Person } from "./tokens";

type TeamEnv = { Variables: { person: Person } };

/** Largest batch submission: 5,000 requests with their rows. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
const MAX_DECISION_BYTES = 16 * 1024;
const STATES: readonly BatchState[] = ["pending", "approved", "rejected", "expired"];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });

/** The routes, to mount at /team/v1. */
export function teamRoutes(gate: TeamGate, limits: BodyLimits): Hono<TeamEnv> {
  const app = new Hono<TeamEnv>();
  // What the add-in needs to ask for a token and to build its paths: public, no secret in it (the enterprise's
  // id is in every path the add-in sends; its key stays here).
  app.get("/sign-in", () => json({ tenants: gate.config.tenants, audience: gate.config.audience, enterprise_id: gate.config.enterpriseId, ...(gate.config.signIn ? { client_id: gate.config.signIn.clientId, authority: gate.config.signIn.authority, scopes: gate.config.signIn.scopes } : {}) }));
  // A batch's link, as the preparer sends it (the add-in's team-link.ts): opened in a browser, it says how to
  // open the batch. Public, so it shows nothing of the batch, not even whether it exists.
  app.get("/link/:id", (c) => {
    const id = c.req.param("id");
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return jsonError(404, "No such batch link.");
    const text = `Spend Sync batch ${id.toLowerCase()} is waiting for an approver.\r\n\r\nTo review it: open Excel, open Spend Sync, choose Team, sign in through this gateway, and paste this page's address into "Open a batch by its link or id" (Approval). Nothing in it is sent before an approver other than its preparer approves it.\r\n`;
    return new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
  });
  app.use(async (c, next) => {
    const verified = await gate.verify(c.req.header("authorization") ?? null, gate.now());
    if (!verified.ok) return teamRefusal(verified.status, verified.message);
    c.set("person", verified.person);
    await next();
  });
  const needs = (c: Context<TeamEnv>, role: Role) => (c.get("person").roles.includes(role) ? undefined : jsonError(403, `This needs the ${role} role; you have ${c.get("person").roles.join(", ")}.`));

  app.get("/me", async (c) => {
    const person = c.get("person");
    await gate.db.transaction((tx) => appendAudit(tx, { at: new Date(gate.now()).toISOString(), actor: actorOf(person), action: "sign-in", batchId: null, detail: JSON.stringify({ username: person.username, roles: person.roles }) }));
    return json({ id: person.id, name: person.name, username: person.username, tenant: person.tenant, roles: person.roles });
  });

  app.post("/batches", async (c) => {
    const refused = needs(c, "preparer");
    if (refused) return refused;
    const raw = await readJson(c, MAX_BATCH_BYTES, limits);
    if (raw instanceof Response) return raw;
    const parsed = parseBatchInput(raw, gate.config.enterpriseId);
    if (!parsed.ok) return jsonError(400, parsed.message);
    const id = await prepareBatch(gate.db, c.get("person"), parsed.input, gate.now(), gate.batchValidityMs);
    return json(await readBatch(gate.db, id, gate.now()), 201);
  });

  app.get("/batches", async (c) => {
    const state = c.req.query("state");
    if (state !== undefined && !(STATES as readonly string[]).includes(state)) return jsonError(400, `state is one of ${STATES.join(", ")}.`);
    return json({ results: await listBatches(gate.db, state as BatchState | undefined, gate.now()) });
  });

  app.get("/batches/:id", async (c) => {
    const batch = await readBatch(gate.db, c.req.param("id"), gate.now());
    return batch ? json(batch) : jsonError(404, "No such batch.");
  });

  for (const verdict of ["approve", "reject"] as const) {
    app.post(`/batches/:id/${verdict}`, async (c) => {
      const refused = needs(c, "approver");
      if (refused) return refused;
      const said = (await readJson(c, MAX_DECISION_BYTES, limits)) as { comment?: unknown; hash?: unknown } | Response;
      if (said instanceof Response) return said;
      const comment = typeof said?.comment === "string" ? said.comment.slice(0, 2000) : "";
      if (verdict === "reject" && comment.trim() === "") return jsonError(400, "Say why in a comment: the preparer reads it.");
      const hash = typeof said?.hash === "string" ? said.hash : undefined;
      const decided = await decideBatch(gate.db, c.req.param("id"), c.get("person"), verdict, { comment, hash }, gate.now());
      if (!decided.ok) return jsonError(decided.status, decided.message);
      return json(await readBatch(gate.db, c.req.param("id"), gate.now()));
    });
  }

  app.get("/batches/:id/audit.csv", async (c) => {
    const batch = await readBatch(gate.db, c.req.param("id"), gate.now());
    if (!batch) return jsonError(404, "No such batch.");
    const csv = auditCsv(batch, await auditOfBatch(gate.db, batch.id));
    return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="batch-${batch.id}.csv"`, "Cache-Control": "no-store" } });
  });
  return app;
}

/** The request's JSON body, read under a cap; an answer to send instead when it cannot be. */
async function readJson(c: Context<TeamEnv>, max: number, limits: BodyLimits): Promise<unknown> {
  const read = await readCapped(c.req.raw.body, c.req.header("content-length") ?? null, max, { timer: limits.timer, ms: limits.idleTimeoutMs });
  if (!read.ok) return jsonError(read.reason === "too-large" ? 413 : 408, `The body could not be read (${read.reason}); at most ${max} bytes.`);
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(read.bytes ?? new Uint8Array()));
    return typeof parsed === "object" && parsed !== null ? parsed : jsonError(400, "The body must be a JSON object.");
  } catch {
    return jsonError(400, "The body is not JSON.");
  }
}
