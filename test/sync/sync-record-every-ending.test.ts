/**
 * One record's sender, every way it can end, against a scripted service (no sandbox, no workbook: each case is a
 * few requests in memory). What each case asserts is what the user or the journal's reader sees: the outcome and
 * the row's message, every journal line (request, status, outcome, message, body sent), the requests in their
 * order, and which attempt's "sending" line was asked for. The whole-flow tests (faults.test.ts,
 * each-way-a-record-ends.test.ts) run the same rules through the sandbox and the in-memory Excel.
 */
import { SpendClient } from "../../src/api";
import type { StatePatch } from "../../src/domain";
import type { TrackedValues } from "../../src/sheets";
import type { JournalEntry } from "../../src/sync";
import { syncRecord, type RecordHooks, type SendOptions } from "../../src/sync/sync-record";
import { sendingMessage } from "../../src/sync/record-run";
import { expense, U } from "../api/helpers/records";
import { fakeTransport, type Reply } from "../support/fake-transport";

const ID = U(1);
const AT = new Date("2026-11-21T10:00:00Z");
const APPROVED: TrackedValues = { state: "approved", accounted_id: "", paid_id: "", paid_at: "" };
const TO_ACCOUNTED: StatePatch = { state: "accounted", accounted_id: "ACC-1" };
/** "Fields sent" in the columns' words; the exact body only in the line's exact request (issue 43). */
const SENT = "State accounted, Accounted ID ACC-1";
const PATH = `/public/v1/enterprises/ent-1/subsidiaries/sub-1/expenses/${ID}/`;
const HEADERS: Record<string, string> = { state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at" };
const wordsOf = (patch: StatePatch) => Object.entries(patch).map(([k, v]) => `${HEADERS[k]} ${String(v)}`).join(", ");

/** The record as the service answers a GET (or a PATCH) of it. */
const record = (values: Record<string, unknown> = {}, id = ID): Reply => ({ body: expense(1, { id, ...values }) });
const asLoaded = () => record();
const accounted = (accountedId = "ACC-1") => record({ state: "accounted", accounted_id: accountedId });
const error = (status: number, message: string, headers: Record<string, string> = {}): Reply =>
  ({ status, body: { status, error: message }, headers: { "content-type": "application/json", ...headers } });

interface Run {
  result: Awaited<ReturnType<typeof syncRecord>>;
  /** Method and path of every request, in order. */
  wire: string[];
  /** PATCH bodies as they left. */
  bodies: unknown[];
  lines: JournalEntry[];
  /** The attempts whose "sending" line was asked for, with that line's message. */
  attempts: [number, string][];
  sleeps: number[];
}

/**
 * Syncs the approved expense ID with `patch`; the n-th request (0-based) is answered by `replies[n]`. `hooks` and
 * `options` override the defaults (a journal that always writes, a run that never stops).
 */
async function send(replies: Reply[], hooks: Partial<RecordHooks> = {}, options: SendOptions & { patch?: StatePatch; resource?: "expense" | "allowance"; maxRetryAfterMs?: number } = {}): Promise<Run> {
  const fake = fakeTransport((_request, n) => {
    if (n >= replies.length) throw new Error(`request ${n + 1} was not expected`);
    return replies[n];
  });
  const sleeps: number[] = [];
  const client = new SpendClient({
    baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_send_row_key_0123456789", transport: fake.transport,
    retry: { retries: 0, ...(options.maxRetryAfterMs === undefined ? {} : { maxRetryAfterMs: options.maxRetryAfterMs }) },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const lines: JournalEntry[] = [];
  const attempts: [number, string][] = [];
  const result = await syncRecord(client, { resource: options.resource ?? "expense", subsidiaryId: "sub-1" }, ID, APPROVED, options.patch ?? TO_ACCOUNTED, {
    log: (entry) => lines.push(entry),
    beforeAttempt: async (attempt, line) => {
      attempts.push([attempt, line.message]);
      const patch = options.patch ?? TO_ACCOUNTED;
      const path = PATH.replace("/expenses/", `/${options.resource ?? "expense"}s/`);
      expect(line).toEqual({
        at: AT, id: ID, from: "approved", to: patch.state, request: "PATCH", sent: wordsOf(patch), exact: `PATCH ${path} ${JSON.stringify(patch)}`,
        httpStatus: null, outcome: "sending", message: sendingMessage(attempt),
      });
    },
    maySend: () => true,
    stopMessage: () => "",
    ...hooks,
  }, { now: () => AT, maxAttempts: options.maxAttempts, signal: options.signal });
  const wire = fake.requests.map((r) => `${r.method} ${new URL(r.url).pathname.replace("/public/v1/enterprises/ent-1/subsidiaries/sub-1/", "")}`);
  const bodies = fake.requests.filter((r) => r.method === "PATCH").map((r) => JSON.parse(String(r.body)));
  return { result, wire, bodies, lines, attempts, sleeps };
}

/** A journal line of this record, as the sender writes it. */
const line = (request: "PATCH" | "read" | "none", httpStatus: number | null, outcome: string, message: string): JournalEntry =>
  ({
    at: AT, id: ID, from: "approved", to: "accounted", request, sent: request === "PATCH" ? SENT : "",
    exact: request === "PATCH" ? `PATCH ${PATH} ${JSON.stringify(TO_ACCOUNTED)}` : request === "read" ? `GET ${PATH}` : "", httpStatus, outcome, message,
  });

const GET = `GET expenses/${ID}/`;
const PATCH = `PATCH expenses/${ID}/`;
const FIRST = sendingMessage(1);
const SECOND = sendingMessage(2);
const ASKED = "accounted, Accounted ID ACC-1";

describe("the sending line", () => {
  it("names the attempt from the second one on", () => {
    expect(FIRST).toBe("Written before the PATCH; it leaves only if a read of the record shows it as loaded.");
    expect(SECOND).toBe("Attempt 2. Written before the PATCH; it leaves only if a read of the record shows it as loaded.");
  });
});

describe("the read before the PATCH decides", () => {
  it("as loaded: the PATCH leaves with the row's body, and its echo is taken as applied", async () => {
    const run = await send([asLoaded(), accounted()]);
    expect(run.result).toEqual({
      outcome: "applied", message: "",
      server: { ...APPROVED, state: "accounted", accounted_id: "ACC-1", updated_at: undefined },
      sent: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" },
    });
    expect(run.wire).toEqual([GET, PATCH]);
    expect(run.bodies).toEqual([TO_ACCOUNTED]);
    expect(run.attempts).toEqual([[1, FIRST]]);
    expect(run.lines).toEqual([line("PATCH", 200, "applied", "")]);
  });

  it("an allowance is read and sent at its own address", async () => {
    const tracked = { id: ID, state: "approved", accounted_id: null, paid_id: null, paid_at: null, converted_amount: 10 };
    const read: Reply = { body: {
      ...tracked, allowance_number: 1, description: "Trip", cost_center_id: U(200), start_date: "2026-03-01T00:00:00Z", end_date: "2026-03-03T00:00:00Z",
      days: 2, amount: { amount: 10, currency: "CLP" }, currency: "CLP", created_at: "2026-02-27T09:30:00Z", is_active: true,
    } };
    const answer: Reply = { body: { ...tracked, state: "accounted", accounted_id: "ACC-1", updated_at: "2026-11-21T10:00:00Z" } };
    const run = await send([read, answer], {}, { resource: "allowance" });
    expect(run.wire).toEqual([`GET allowances/${ID}/`, `PATCH allowances/${ID}/`]);
    expect(run.result.outcome).toBe("applied");
    expect(run.result.server?.updated_at).toBe("2026-11-21T10:00:00Z");
  });

  it("already what the row asks: nothing is sent", async () => {
    const run = await send([accounted()]);
    expect(run.result).toEqual({ outcome: "already-applied", message: "", server: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" } });
    expect(run.wire).toEqual([GET]);
    expect(run.lines).toEqual([line("read", 200, "already-applied", `Read the record before sending: it already holds ${ASKED}, exactly what this row asks. Nothing was sent.`)]);
  });

  it("changed some other way since it was loaded: a conflict, nothing sent", async () => {
    const run = await send([accounted("ACC-9")]);
    expect(run.result).toEqual({
      outcome: "conflict",
      message: "Changed on the server by someone else since you loaded: State is now accounted (you loaded approved), Accounted ID is now ACC-9 (you loaded empty). " +
        "Your edit (State accounted, Accounted ID ACC-1) " +
        "was not sent. Refresh to see their change (your edit is kept), then edit again if still needed.",
      server: { ...APPROVED, state: "accounted", accounted_id: "ACC-9" },
    });
    expect(run.wire).toEqual([GET]);
    expect(run.lines).toEqual([line("read", 200, "conflict",
      "Read the record before sending: someone else changed it on the server since it was loaded. State is now accounted (you loaded approved), " +
      "Accounted ID is now ACC-9 (you loaded empty). Nothing was sent. The edit was State accounted, Accounted ID ACC-1: refresh the table (the edit is kept) and edit again if still needed.")]);
  });

  it("gone (404): rejected, nothing sent", async () => {
    const run = await send([error(404, "Not found.")]);
    expect(run.result).toEqual({ outcome: "rejected", message: "The record no longer exists on the server (or moved to another subsidiary). Refresh the table." });
    expect(run.wire).toEqual([GET]);
    expect(run.lines).toEqual([line("read", 404, "rejected",
      "Read the record before sending: it no longer exists on the server (or moved to another subsidiary). Nothing was sent. Refresh the table.")]);
  });

  it("the key refused (403): not sent, and the run is told to stop", async () => {
    const run = await send([error(403, "Invalid API key")]);
    expect(run.result.outcome).toBe("not-sent");
    expect(run.result.authRefused).toBe(true);
    expect(run.result.message).toMatch(/\.$/);
    expect(run.wire).toEqual([GET]);
    expect(run.lines).toEqual([line("read", 403, "not-sent", `Reading the record was refused: ${run.result.message} Nothing was sent.`)]);
  });

  it("the PATCH's key refused (403): not sent, and the run is told to stop", async () => {
    const run = await send([asLoaded(), error(403, "Invalid API key")]);
    expect(run.result.outcome).toBe("not-sent");
    expect(run.result.authRefused).toBe(true);
    expect(run.result.message).toMatch(/\.$/);
    expect(run.wire).toEqual([GET, PATCH]);
    expect(run.lines).toEqual([line("PATCH", 403, "not-sent", run.result.message)]);
  });

  it("unreadable (500): not sent, and the row says why in parentheses", async () => {
    const run = await send([error(500, "Internal error")]);
    expect(run.result.outcome).toBe("not-sent");
    expect(run.result.authRefused).toBeUndefined();
    expect(run.result.message).toMatch(/^Not sent: the record could not be read first \(.*Internal error[^.]*\)\. Run Sync states again\.$/);
    expect(run.lines).toEqual([line("read", 500, "not-sent", run.result.message)]);
  });

  it("cancelled while the read travels: the run's stop message, or 'Cancelled' when it has none", async () => {
    for (const [stop, expected] of [["Stopped by the user.", "Stopped by the user."], ["", "Cancelled: the rest was not sent."]]) {
      const controller = new AbortController();
      controller.abort();
      const run = await send([asLoaded()], { stopMessage: () => stop }, { signal: controller.signal });
      expect(run.result).toEqual({ outcome: "not-sent", message: expected });
      expect(run.lines).toEqual([line("read", null, "not-sent", expected)]);
    }
  });

  it("the run stopped between the read and the PATCH: nothing leaves, the stop message is the row's", async () => {
    for (const [stop, expected] of [["Stopped: the key was refused.", "Stopped: the key was refused."], ["", "Not sent."]]) {
      const run = await send([asLoaded()], { maySend: () => false, stopMessage: () => stop });
      expect(run.result).toEqual({ outcome: "not-sent", message: expected });
      expect(run.wire).toEqual([GET]);
      expect(run.lines).toEqual([line("read", 200, "not-sent", `Read the record before sending: it still reads approved, as loaded. Then the run stopped, so nothing was sent: ${expected}`)]);
    }
  });

  it("the first sending line cannot be written: nothing is read or sent", async () => {
    const run = await send([], { beforeAttempt: () => Promise.reject(new Error("disk full")) });
    expect(run.result).toEqual({ outcome: "not-sent", message: "The journal could not be written, so nothing more was sent: disk full" });
    expect([run.wire, run.lines]).toEqual([[], []]);
  });

  it("a body the service's rules forbid never leaves: read, then refused here", async () => {
    const patch: StatePatch = { state: "accounted", paid_id: "PAY-1" };
    const run = await send([asLoaded()], {}, { patch });
    const refused = "paid_id and paid_at must not be sent when state is 'accounted'.";
    expect(run.result).toEqual({ outcome: "not-sent", message: refused });
    expect(run.wire).toEqual([GET]);
    expect(run.lines).toEqual([{ ...line("none", null, "not-sent", `${refused} Refused before it left: nothing was sent.`), to: "accounted" }]);
  });
});

describe("after an answer that was lost (500), the next request is a read", () => {
  const lost = (status = 500) => error(status, "Internal error");
  const lostLine = (run: Run, status: number | null = 500) => {
    const first = run.lines[0];
    expect(first).toEqual(line("PATCH", status, "unknown", first.message));
    expect(first.message).toMatch(/ Reading the record before anything else\.$/);
    return first;
  };

  it("it holds what was sent: applied, not sent again", async () => {
    const run = await send([asLoaded(), lost(), accounted()]);
    expect(run.result).toEqual({
      outcome: "applied", message: "Confirmed by reading the record after the answer was lost.",
      server: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" }, sent: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" },
    });
    expect(run.wire).toEqual([GET, PATCH, GET]);
    expect(run.attempts).toEqual([[1, FIRST], [2, SECOND]]);
    lostLine(run);
    expect(run.lines.slice(1)).toEqual([line("read", 200, "applied", `Read the record after the lost answer: it holds ${ASKED}, what was sent, so the PATCH was applied. Not sent again.`)]);
  });

  it("it still reads as loaded: sent again, and the second answer settles it", async () => {
    const run = await send([asLoaded(), lost(), asLoaded(), accounted()]);
    expect(run.result.outcome).toBe("applied");
    expect(run.result.message).toBe("");
    expect(run.wire).toEqual([GET, PATCH, GET, PATCH]);
    expect(run.bodies).toEqual([TO_ACCOUNTED, TO_ACCOUNTED]);
    expect(run.lines.slice(1)).toEqual([line("PATCH", 200, "applied", "")]);
  });

  it("it is gone: a conflict, not sent again", async () => {
    const run = await send([asLoaded(), lost(), error(404, "Not found.")]);
    expect(run.result).toEqual({ outcome: "conflict", message: "After a lost answer the record no longer exists on the server." });
    expect(run.lines.slice(1)).toEqual([line("read", 404, "conflict",
      "Read the record after the lost answer: it no longer exists on the server (or moved to another subsidiary). Not sent again. Refresh the table.")]);
  });

  it("it reads neither as loaded nor as sent: a conflict, not sent again", async () => {
    const run = await send([asLoaded(), lost(), accounted("ACC-9")]);
    expect(run.result).toEqual({
      outcome: "conflict", message: "After a lost answer the record reads accounted, Accounted ID ACC-9, not what was sent: not sent again. Refresh the table.",
      server: { ...APPROVED, state: "accounted", accounted_id: "ACC-9" },
    });
    expect(run.lines.slice(1)).toEqual([line("read", 200, "conflict",
      "Read the record after the lost answer: it is now accounted, Accounted ID ACC-9, neither as loaded (approved) nor what was sent. Not sent again. Refresh the table.")]);
  });

  it("the read fails too: unconfirmed, and the row says to run Sync states again", async () => {
    const run = await send([asLoaded(), lost(), lost(503)]);
    expect(run.result.outcome).toBe("unconfirmed");
    expect(run.result.message).toMatch(/^Sent, but the service could not be reached to confirm it \(.*[^.]\)\. Run Sync states again: it reads the record before sending\.$/);
    expect(run.lines.slice(1)).toEqual([line("read", 503, "unconfirmed", `${run.result.message} Not sent again.`)]);
  });

  it("the read's key is refused: unconfirmed, the run told to stop, 'not sent again'", async () => {
    const run = await send([asLoaded(), lost(), error(403, "Invalid API key")]);
    expect(run.result.outcome).toBe("unconfirmed");
    expect(run.result.authRefused).toBe(true);
    expect(run.lines.slice(1)).toEqual([line("read", 403, "unconfirmed", `Reading the record was refused: ${run.result.message} Not sent again.`)]);
  });

  it("the PATCH's key is refused the second time: unconfirmed (the first may have landed), the run told to stop", async () => {
    const run = await send([asLoaded(), lost(), asLoaded(), error(403, "Invalid API key")]);
    expect(run.result.outcome).toBe("unconfirmed");
    expect(run.result.authRefused).toBe(true);
    expect(run.lines.slice(1)).toEqual([line("PATCH", 403, "unconfirmed", run.result.message)]);
  });

  it("the second sending line cannot be written: unconfirmed, nothing more read or sent", async () => {
    const run = await send([asLoaded(), lost()], { beforeAttempt: (attempt) => (attempt === 1 ? Promise.resolve() : Promise.reject(new Error("disk full"))) });
    expect(run.result).toEqual({ outcome: "unconfirmed", message: "The journal could not be written, so nothing more was sent: disk full" });
    expect(run.wire).toEqual([GET, PATCH]);
  });

  it("the run stopped before the second PATCH: 'it was not sent again'", async () => {
    let reads = 0;
    const run = await send([asLoaded(), lost(), asLoaded()], { maySend: () => ++reads === 1, stopMessage: () => "Stopped." });
    expect(run.result).toEqual({ outcome: "not-sent", message: "Stopped." });
    expect(run.lines.slice(1)).toEqual([line("read", 200, "not-sent",
      "Read the record after the lost answer: it still reads approved, as loaded. Then the run stopped, so it was not sent again: Stopped.")]);
  });

  it("every attempt lost: tried maxAttempts times, then a read, and 'not applied'", async () => {
    const run = await send([asLoaded(), lost(), asLoaded(), lost(), asLoaded()], {}, { maxAttempts: 2 });
    expect(run.wire).toEqual([GET, PATCH, GET, PATCH, GET]);
    expect(run.attempts).toEqual([[1, FIRST], [2, SECOND]]);
    expect(run.result).toEqual({ outcome: "not-sent", message: "Not applied: the service failed 2 times in a row. Run Sync states again later." });
    expect(run.lines.at(-1)).toEqual(line("read", 200, "not-sent",
      "Read the record after the lost answer: it still reads approved, as loaded. Not applied: the service failed 2 times in a row, so it is not sent again. Run Sync states again later."));
    expect(run.lines).toHaveLength(3);
  });

  it("four attempts by default", async () => {
    const replies: Reply[] = [];
    for (let i = 0; i < 4; i++) replies.push(asLoaded(), lost());
    const run = await send([...replies, asLoaded()]);
    expect(run.wire.filter((w) => w === PATCH)).toHaveLength(4);
    expect(run.attempts.map(([n]) => n)).toEqual([1, 2, 3, 4]);
    expect(run.result.message).toBe("Not applied: the service failed 4 times in a row. Run Sync states again later.");
  });
});

describe("a refusal (400, 404) is read before it is believed", () => {
  const refused = () => error(400, "Invalid state transition from 'approved' to 'accounted'.");
  const refusedLine = line("PATCH", 400, "refused", "Invalid state transition from 'approved' to 'accounted'. Reading the record.");

  it("the record still reads as loaded: rejected with the service's words, not sent again", async () => {
    const run = await send([asLoaded(), refused(), asLoaded()]);
    expect(run.result).toEqual({ outcome: "rejected", message: "Invalid state transition from 'approved' to 'accounted'." });
    expect(run.wire).toEqual([GET, PATCH, GET]);
    expect(run.attempts).toEqual([[1, FIRST]]);
    expect(run.lines).toEqual([refusedLine, line("read", 200, "rejected",
      "Read the record after the refusal: it still reads approved, as loaded. The PATCH was refused: Invalid state transition from 'approved' to 'accounted'. Not sent again.")]);
  });

  it("the record holds what the row asks (our own lost attempt, or a colleague): already applied, the refusal quoted", async () => {
    const run = await send([asLoaded(), refused(), accounted()]);
    expect(run.result).toEqual({
      outcome: "already-applied", server: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" },
      message: "The service said \"Invalid state transition from 'approved' to 'accounted'.\", and the record holds exactly what this row asks.",
    });
    expect(run.lines).toEqual([refusedLine, line("read", 200, "already-applied",
      `Read the record after the refusal: it holds ${ASKED}, exactly what this row asks (the service said "Invalid state transition from 'approved' to 'accounted'."). Not sent again.`)]);
  });

  it("the record moved: a conflict, 'not sent again'", async () => {
    const run = await send([asLoaded(), refused(), accounted("ACC-9")]);
    expect(run.result.outcome).toBe("conflict");
    expect(run.lines[1]).toEqual(line("read", 200, "conflict",
      "Read the record after the refusal: someone else changed it on the server since it was loaded. State is now accounted (you loaded approved), " +
      "Accounted ID is now ACC-9 (you loaded empty). Not sent again. The edit was State accounted, Accounted ID ACC-1: refresh the table (the edit is kept) and edit again if still needed."));
  });

  it("the read after a refusal fails: not sent, 'not sent again'", async () => {
    const run = await send([asLoaded(), refused(), error(500, "Internal error")]);
    expect(run.result.outcome).toBe("not-sent");
    expect(run.result.message).toMatch(/^Not sent: the record could not be read first \(.*\)\. Run Sync states again\.$/);
    expect(run.lines[1]).toEqual(line("read", 500, "not-sent", `${run.result.message} Not sent again.`));
  });

  it("a 404 to the PATCH and the record gone: rejected, 'not sent again'", async () => {
    const run = await send([asLoaded(), error(404, "Not found."), error(404, "Not found.")]);
    expect(run.result).toEqual({ outcome: "rejected", message: "The record no longer exists on the server (or moved to another subsidiary). Refresh the table." });
    expect(run.lines).toEqual([
      line("PATCH", 404, "refused", "The record no longer exists on the server. Refresh the table. Reading the record."),
      line("read", 404, "rejected", "Read the record after the refusal: it no longer exists on the server (or moved to another subsidiary). Not sent again. Refresh the table."),
    ]);
  });

  it("a 400 without the service's words: the client's message is the refusal", async () => {
    const run = await send([asLoaded(), { status: 400, text: "" }, asLoaded()]);
    expect(run.result.outcome).toBe("rejected");
    expect(run.result.message).not.toBe("");
    expect(run.lines[0]).toEqual(line("PATCH", 400, "refused", `${run.result.message} Reading the record.`));
  });
});

describe("429: not processed, so it waits, reads, and tries again", () => {
  it("waits as asked, then reads before the next PATCH", async () => {
    const run = await send([asLoaded(), error(429, "Slow down", { "retry-after": "2" }), asLoaded(), accounted()]);
    expect(run.sleeps).toEqual([2000]);
    expect(run.wire).toEqual([GET, PATCH, GET, PATCH]);
    expect(run.attempts).toEqual([[1, FIRST], [2, SECOND]]);
    expect(run.result.outcome).toBe("applied");
    expect(run.lines).toHaveLength(2);
    expect(run.lines[0]).toEqual(line("PATCH", 429, "retry", run.lines[0].message));
    expect(run.lines[0].message).toMatch(/ Waiting, then reading the record again\.$/);
  });

  it("a wait longer than the client's limit: not sent, and said in seconds", async () => {
    const run = await send([asLoaded(), error(429, "Slow down", { "retry-after": "61" })], {}, { maxRetryAfterMs: 60_000 });
    expect(run.sleeps).toEqual([]);
    expect(run.result).toEqual({ outcome: "not-sent", message: "The service asks to wait 61 s before more changes: not sent. Run Sync states again later." });
    expect(run.lines).toEqual([line("PATCH", 429, "not-sent", run.result.message)]);
  });

  it("a wait exactly at the client's limit is waited", async () => {
    const run = await send([asLoaded(), error(429, "Slow down", { "retry-after": "60" }), asLoaded(), accounted()], {}, { maxRetryAfterMs: 60_000 });
    expect(run.sleeps).toEqual([60_000]);
    expect(run.result.outcome).toBe("applied");
  });

  it("after a lost answer, a wait too long leaves it unconfirmed", async () => {
    const run = await send([asLoaded(), error(500, "Internal error"), asLoaded(), error(429, "Slow down", { "retry-after": "61" })], {}, { maxRetryAfterMs: 60_000 });
    expect(run.result.outcome).toBe("unconfirmed");
    expect(run.lines.at(-1)).toEqual(line("PATCH", 429, "unconfirmed", "The service asks to wait 61 s before more changes: not sent. Run Sync states again later."));
  });

  it("no Retry-After: the client's own back-off", async () => {
    const run = await send([asLoaded(), error(429, "Slow down"), asLoaded(), accounted()]);
    expect(run.sleeps).toHaveLength(1);
    expect(run.sleeps[0]).toBeGreaterThan(0);
  });
});

describe("a 200 whose answer contradicts the request is settled by a read, never sent again", () => {
  const wrongId = () => record({ state: "accounted", accounted_id: "ACC-1" }, U(2));
  const because = `the answer is for record "${U(2)}", not this one`;
  const unconfirmedLine = line("PATCH", 200, "unconfirmed", `The service answered 200, but ${because}: not taken as applied. Reading the record to settle it.`);

  it("the read shows what was sent: applied, saying the answer did not match", async () => {
    const run = await send([asLoaded(), wrongId(), accounted()]);
    expect(run.result).toEqual({
      outcome: "applied", message: `Confirmed by reading the record: the service's answer did not match the request (${because}).`,
      server: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" }, sent: { ...APPROVED, state: "accounted", accounted_id: "ACC-1" },
    });
    expect(run.wire).toEqual([GET, PATCH, GET]);
    expect(run.attempts).toEqual([[1, FIRST]]);
    expect(run.lines).toEqual([unconfirmedLine, line("read", 200, "applied",
      `Read the record to settle it: it holds ${ASKED}, what was sent, so the PATCH was applied (its answer did not match the request: ${because}). Not sent again.`)]);
  });

  it("the read shows it as loaded: rejected, and the user is told to report it", async () => {
    const run = await send([asLoaded(), accounted("ACC-2"), asLoaded()]);
    const echo = "the answer says Accounted ID ACC-2, not what was sent";
    expect(run.result).toEqual({
      outcome: "rejected",
      message: `Not applied: the service answered 200, but ${echo}, and the record still reads approved. Nothing more was sent; run Sync states again, and tell your Spend Sync contact if it happens again.`,
    });
    expect(run.lines).toEqual([
      line("PATCH", 200, "unconfirmed", `The service answered 200, but ${echo}: not taken as applied. Reading the record to settle it.`),
      line("read", 200, "rejected", `Read the record to settle it: it still reads approved, as loaded, so the PATCH was not applied (the service answered 200, but ${echo}). ` +
        "Not sent again; run Sync states again, and tell your Spend Sync contact if it happens again."),
    ]);
  });

  it("the read shows something else: a conflict", async () => {
    const run = await send([asLoaded(), wrongId(), accounted("ACC-9")]);
    expect(run.result).toEqual({
      outcome: "conflict", server: { ...APPROVED, state: "accounted", accounted_id: "ACC-9" },
      message: `The service answered 200, but ${because}, and the record now reads accounted, Accounted ID ACC-9, not what this row asks. Refresh the table.`,
    });
    expect(run.lines[1]).toEqual(line("read", 200, "conflict",
      `Read the record to settle it: it is now accounted, Accounted ID ACC-9, not what this row asks (the service answered 200, but ${because}). Not sent again. Refresh the table.`));
  });

  it("the record is gone: a conflict", async () => {
    const run = await send([asLoaded(), wrongId(), error(404, "Not found.")]);
    expect(run.result).toEqual({ outcome: "conflict", message: `The service answered 200, but ${because}, and the record no longer exists on the server. Refresh the table.` });
    expect(run.lines[1]).toEqual(line("read", 404, "conflict",
      `Read the record to settle it: it no longer exists on the server (the service had answered 200, but ${because}). Not sent again. Refresh the table.`));
  });

  it("the read fails: unconfirmed, the run not stopped", async () => {
    const run = await send([asLoaded(), wrongId(), error(500, "Internal error")]);
    expect(run.result.outcome).toBe("unconfirmed");
    expect(run.result.authRefused).toBe(false);
    expect(run.result.message).toMatch(new RegExp(`^Sent, and the service answered 200, but ${because.replace(/[()]/g, "\\$&")}; the record could not be read to settle it \\(.*[^.]\\)\\. Run Sync states again: it reads the record before sending\\.$`));
    expect(run.lines[1]).toEqual(line("read", 500, "unconfirmed", `${run.result.message} Not sent again.`));
  });

  it("the read's key is refused: unconfirmed, and the run told to stop", async () => {
    const run = await send([asLoaded(), wrongId(), error(403, "Invalid API key")]);
    expect(run.result.outcome).toBe("unconfirmed");
    expect(run.result.authRefused).toBe(true);
    expect(run.lines[1].httpStatus).toBe(403);
  });
});
