/**
 * Team mode's admission of a request to the service (`/public/v1/...`), before it is forwarded: the caller's
 * token verified, reads for any member, a PATCH only from an approved batch it names (header X-Spend-Batch),
 * unchanged, within the batch's validity and once. One async function, so any entry (the hono handler, a
 * Node fast path) plugs it in the same way:
 *
 *     const admitted = await admitTeamRequest(request, gate, limits);
 *     if ("answered" in admitted) return admitted.answered;
 *     return admitted.settle(await forwardIt(admitted.request));
 *
 * The request handed on carries the enterprise key instead of the person's token; `settle` records a PATCH's
 * answer (so a repeat gets it) and hands back an equal answer.
 */
import { readCapped } from "../body";
import { jsonError } from "../http-errors";
import type { Timer } from "../timeout";
import { resolveAbandoned, type Recovery } from "./abandoned";
import { claimRequest, recordAnswer, recordedAnswer } from "./forwarding";
import type { TeamGate } from "./gate";
import type { Person } from "./tokens";

const BATCH_HEADER = "x-spend-batch";

export type TeamAdmission = { answered: Response } | { request: Request; settle: (answer: Response) => Promise<Response> };

export interface BodyLimits {
  maxBodyBytes: number;
  idleTimeoutMs: number;
  timer: Timer;
  /** How a repeat resolves a PATCH its gateway abandoned while sending (abandoned.ts); without it, 409 as long as it stays so. */
  recovery?: Recovery;
}

const passThrough = (answer: Response) => Promise.resolve(answer);

/** A refusal as the gateway writes them; 401s say how to authenticate. */
export function teamRefusal(status: number, message: string): Response {
  return jsonError(status, message, status === 401 ? { "WWW-Authenticate": 'Bearer realm="spend-sync-gateway"' } : {});
}

/** Admits (or refuses) one request to the service in team mode. */
export async function admitTeamRequest(request: Request, gate: TeamGate, limits: BodyLimits): Promise<TeamAdmission> {
  const verified = await gate.verify(request.headers.get("authorization"), gate.now());
  if (!verified.ok) return { answered: teamRefusal(verified.status, verified.message) };
  const url = new URL(request.url);
  const own = `/public/v1/enterprises/${gate.config.enterpriseId}/`;
  if (!url.pathname.toLowerCase().startsWith(own.toLowerCase())) {
    return { answered: jsonError(403, `This gateway serves enterprise ${gate.config.enterpriseId} only.`) };
  }
  const headers = new Headers(request.headers);
  headers.set("authorization", gate.serviceAuthorization);
  headers.delete(BATCH_HEADER);
  if (request.method !== "PATCH") {
    // (GET and HEAD for any member; another method is answered 405 by the forwarder, and never sent.)
    return { request: new Request(request.url, { method: request.method, headers }), settle: passThrough };
  }
  return admitPatch(request, url, headers, verified.person, gate, limits);
}

async function admitPatch(request: Request, url: URL, headers: Headers, person: Person, gate: TeamGate, limits: BodyLimits): Promise<TeamAdmission> {
  if (!person.roles.includes("preparer")) return { answered: jsonError(403, "Only a preparer sends changes, in a batch an approver approved.") };
  const batchId = request.headers.get(BATCH_HEADER) ?? "";
  if (!/^[0-9a-f-]{36}$/i.test(batchId)) return { answered: jsonError(403, "A PATCH is sent only in an approved batch: name it in the X-Spend-Batch header. Nothing was sent.") };
  const read = await readCapped(request.body, request.headers.get("content-length"), limits.maxBodyBytes, { timer: limits.timer, ms: limits.idleTimeoutMs });
  if (!read.ok) return { answered: jsonError(read.reason === "too-large" ? 413 : 408, "The request body could not be read whole: nothing was sent.") };
  const bytes = read.bytes ?? new Uint8Array();
  const body = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const path = `${url.pathname}${url.search}`;
  const id = batchId.toLowerCase();
  let claim = await claimRequest(gate.db, id, person, path, body, gate.now());
  if (claim.kind === "in-flight" && limits.recovery) {
    // Read from the service only once no gateway can still be waiting for the answer (abandoned.ts).
    const resolution = await resolveAbandoned(gate.db, limits.recovery, id, path, person, gate.now);
    if (resolution === "applied" || resolution === "not-applied") claim = await claimRequest(gate.db, id, person, path, body, gate.now());
  }
  if (claim.kind === "refused") return { answered: jsonError(claim.status, claim.message) };
  if (claim.kind === "replay") return { answered: replayed(claim) };
  if (claim.kind === "in-flight") return { answered: await awaitAnswer(gate, id, person, path) };
  const { seq } = claim;
  const forwarded = new Request(request.url, { method: "PATCH", headers, body: bytes });
  return {
    request: forwarded,
    settle: async (answer) => {
      const text = await answer.text();
      const contentType = answer.headers.get("content-type") ?? "application/json";
      await recordAnswer(gate.db, id, seq, { status: answer.status, contentType, body: text }, gate.now());
      return new Response(text, { status: answer.status, headers: answer.headers });
    },
  };
}

function replayed(answer: { status: number; contentType: string; body: string }): Response {
  return new Response(answer.body, { status: answer.status, headers: { "Content-Type": answer.contentType, "X-Spend-Replayed": "true", "X-Content-Type-Options": "nosniff" } });
}

/** A repeat that arrived while the first was being sent: it gets the first's answer, or 409 if none comes in time. */
async function awaitAnswer(gate: TeamGate, batchId: string, sender: Person, path: string): Promise<Response> {
  for (let waited = 0; waited < gate.inFlightWaitMs; waited += gate.inFlightPollMs) {
    await gate.sleep(gate.inFlightPollMs);
    const answer = await recordedAnswer(gate.db, batchId, sender, path, gate.now());
    if (answer) return replayed(answer);
  }
  return jsonError(409, "This PATCH is being sent by an earlier request and its answer is not recorded yet: it was not sent again. Read the record before trying again.");
}
