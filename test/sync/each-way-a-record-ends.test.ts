/**
 * Every way one record's exchange with the service can go ends in one outcome, which its row states in full,
 * and in journal lines that say, in order, what was read and what was sent (a read's line carries no fields,
 * "Nothing was sent." before any PATCH of the record left, "Not sent again." after one did). One approved
 * expense edited to accounted ACC-1, against the real sandbox behind a transport that breaks it as each case says.
 */
import { updateExpense, type RawRequest, type RawResponse } from "../../src/api";
import { JOURNAL_TABLE, previewSync, runSync, type Outcome } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const NOW = () => new Date("2026-11-21T10:00:00Z");
const AT = "2026-11-21 10:00 UTC";
const BODY = "State accounted, Accounted ID ACC-1";
const SENDING = "Written before the PATCH; it leaves only if a read of the record shows it as loaded.";
const json = (status: number, body: unknown, headers: Record<string, string> = {}): RawResponse =>
  ({ status, headers: new Headers({ "content-type": "application/json", ...headers }), text: JSON.stringify(body) });
const lost = () => {
  throw new TypeError("fetch failed");
};

/** What the case's transport does with the n-th GET or PATCH of the record (1-based): `pass` lets it through. */
type Step = (n: number, pass: () => Promise<RawResponse>, id: string, cancel: () => void) => Promise<RawResponse> | RawResponse;
/** The texts a case expects, given the record's id and the service's address for it. */
/** `record`: the record as the errors' messages name it, in words ("expense 1a2b3c4d of subsidiary 9f8e7d6c"), never its path (issue 43). */
interface Words { id: string; path: string; origin: string; enterprise: string; record: string }
type Line = [request: string, status: number | "", outcome: string, message: string];

interface Case {
  get?: Step;
  patch?: Step;
  maxAttempts?: number;
  outcome: Outcome;
  /** The row's status after "<Label> <time>: ". */
  status: (w: Words) => string;
  /** The record's journal lines: [Request, HTTP status, Outcome, Message]; a PATCH line carries BODY. */
  lines: (w: Words) => Line[];
  /** PATCHes that reached the service and were applied (0 or 1). */
  applied: 0 | 1;
  /** The run's summary, where the case says something of the run beyond the row. */
  summary?: (w: Words) => string;
}

const CASES: Record<string, Case> = {
  "the read before sending refused for the key": {
    get: () => json(401, { status: 401, error: "Invalid API key" }),
    outcome: "not-sent",
    status: (w) => `Not sent ${AT}: ${refusedKey(w)}`,
    lines: (w) => [["PATCH", "", "sending", SENDING], ["read (GET)", 401, "not-sent", `Reading the record was refused: ${refusedKey(w)} Nothing was sent.`]],
    applied: 0,
  },
  "a lost answer, then the read refused for the key": {
    get: (n, pass) => (n === 1 ? pass() : json(401, { status: 401, error: "Invalid API key" })),
    patch: async (_n, pass) => {
      await pass();
      return lost();
    },
    outcome: "unconfirmed",
    status: (w) => `Unconfirmed ${AT}: ${refusedKey(w)}`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["read (GET)", 401, "unconfirmed", `Reading the record was refused: ${refusedKey(w)} Not sent again.`],
    ],
    applied: 1,
  },
  "the read before sending failing": {
    get: () => json(400, { status: 400, error: "Bad request" }),
    outcome: "not-sent",
    status: (w) => `Not sent ${AT}: Not sent: the record could not be read first (The service refused the request for ${w.record}: Bad request). Run Sync states again.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["read (GET)", 400, "not-sent", `Not sent: the record could not be read first (The service refused the request for ${w.record}: Bad request). Run Sync states again.`],
    ],
    applied: 0,
  },
  "a refusal, then the read failing": {
    get: (n, pass) => (n === 1 ? pass() : json(400, { status: 400, error: "Bad request" })),
    patch: () => json(400, { status: 400, error: "The accounting period is closed." }),
    outcome: "not-sent",
    status: (w) => `Not sent ${AT}: Not sent: the record could not be read first (The service refused the request for ${w.record}: Bad request). Run Sync states again.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 400, "refused", "The accounting period is closed. Reading the record."],
      ["read (GET)", 400, "not-sent", `Not sent: the record could not be read first (The service refused the request for ${w.record}: Bad request). Run Sync states again. Not sent again.`],
    ],
    applied: 0,
  },
  "a lost answer, then the read failing": {
    get: (n, pass) => (n === 1 ? pass() : lost()),
    patch: async (_n, pass) => {
      await pass();
      return lost();
    },
    outcome: "unconfirmed",
    status: (w) => `Unconfirmed ${AT}: Sent, but the service could not be reached to confirm it (${unreachable(w, "GET").replace(/\.$/, "")}). Run Sync states again: it reads the record before sending.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["read (GET)", "", "unconfirmed", `Sent, but the service could not be reached to confirm it (${unreachable(w, "GET").replace(/\.$/, "")}). Run Sync states again: it reads the record before sending. Not sent again.`],
    ],
    applied: 1,
  },
  "the record gone before sending": {
    get: () => json(404, { status: 404, error: "Expense not found" }),
    outcome: "rejected",
    status: () => `Rejected by the service ${AT}: The record no longer exists on the server (or moved to another subsidiary). Refresh the table.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["read (GET)", 404, "rejected", "Read the record before sending: it no longer exists on the server (or moved to another subsidiary). Nothing was sent. Refresh the table."],
    ],
    applied: 0,
  },
  "a lost answer, then the record gone": {
    get: (n, pass) => (n === 1 ? pass() : json(404, { status: 404, error: "Expense not found" })),
    patch: lost,
    outcome: "conflict",
    status: () => `Conflict, not sent ${AT}: After a lost answer the record no longer exists on the server.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["read (GET)", 404, "conflict", "Read the record after the lost answer: it no longer exists on the server (or moved to another subsidiary). Not sent again. Refresh the table."],
    ],
    applied: 0,
  },
  "a lost answer that had landed": {
    patch: async (_n, pass) => {
      await pass();
      return lost();
    },
    outcome: "applied",
    status: () => `Applied ${AT}: approved → accounted. Confirmed by reading the record after the answer was lost.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["read (GET)", 200, "applied", "Read the record after the lost answer: it holds accounted, Accounted ID ACC-1, what was sent, so the PATCH was applied. Not sent again."],
    ],
    applied: 1,
  },
  "a lost answer, then someone else's values": {
    patch: async (_n, _pass, id) => {
      await updateExpense(f.client, f.sub, id, { state: "paid", paid_id: "PAY-X" });
      return lost();
    },
    outcome: "conflict",
    status: () => `Conflict, not sent ${AT}: After a lost answer the record reads paid, Paid ID PAY-X, not what was sent: not sent again. Refresh the table.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["read (GET)", 200, "conflict", "Read the record after the lost answer: it is now paid, Paid ID PAY-X, neither as loaded (approved) nor what was sent. Not sent again. Refresh the table."],
    ],
    applied: 0,
  },
  "refused (400), and the record as loaded": {
    patch: () => json(400, { status: 400, error: "The accounting period is closed." }),
    outcome: "rejected",
    status: () => `Rejected by the service ${AT}: The accounting period is closed.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 400, "refused", "The accounting period is closed. Reading the record."],
      ["read (GET)", 200, "rejected", "Read the record after the refusal: it still reads approved, as loaded. The PATCH was refused: The accounting period is closed. Not sent again."],
    ],
    applied: 0,
  },
  "refused (404), and the record gone": {
    get: (n, pass) => (n === 1 ? pass() : json(404, { status: 404, error: "Expense not found" })),
    patch: () => json(404, { status: 404, error: "Expense not found" }),
    outcome: "rejected",
    status: () => `Rejected by the service ${AT}: The record no longer exists on the server (or moved to another subsidiary). Refresh the table.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 404, "refused", "The record no longer exists on the server. Refresh the table. Reading the record."],
      ["read (GET)", 404, "rejected", "Read the record after the refusal: it no longer exists on the server (or moved to another subsidiary). Not sent again. Refresh the table."],
    ],
    applied: 0,
  },
  "refused (400), and the record already holding the row's values": {
    patch: async (_n, pass) => {
      await pass();
      return json(400, { status: 400, error: "Already accounted." });
    },
    outcome: "already-applied",
    status: () => `Already applied ${AT}: the server already had accounted with these values; nothing sent. The service said "Already accounted.", and the record holds exactly what this row asks.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 400, "refused", "Already accounted. Reading the record."],
      ["read (GET)", 200, "already-applied", 'Read the record after the refusal: it holds accounted, Accounted ID ACC-1, exactly what this row asks (the service said "Already accounted."). Not sent again.'],
    ],
    applied: 1,
  },
  "failing (500) on every one of 2 attempts": {
    patch: () => json(500, { status: 500, error: "Internal error" }),
    maxAttempts: 2,
    outcome: "not-sent",
    status: () => `Not sent ${AT}: Not applied: the service failed 2 times in a row. Run Sync states again later.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 500, "unknown", `${failed(w)} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["PATCH", 500, "unknown", `${failed(w)} Reading the record before anything else.`],
      ["read (GET)", 200, "not-sent", "Read the record after the lost answer: it still reads approved, as loaded. Not applied: the service failed 2 times in a row, so it is not sent again. Run Sync states again later."],
    ],
    applied: 0,
  },
  "asked to wait (429) a second": {
    patch: (n, pass) => (n === 1 ? json(429, { status: 429, error: "Slow down." }, { "retry-after": "1" }) : pass()),
    outcome: "applied",
    status: () => `Applied ${AT}: approved → accounted`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 429, "retry", 'The service is limiting requests (HTTP 429); try again in 1 s. The service said: "Slow down." Waiting, then reading the record again.'],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["PATCH", 200, "applied", ""],
    ],
    applied: 1,
  },
  "asked to wait (429) 60 s, the longest the client waits": {
    patch: (n, pass) => (n === 1 ? json(429, { status: 429, error: "Slow down." }, { "retry-after": "60" }) : pass()),
    outcome: "applied",
    status: () => `Applied ${AT}: approved → accounted`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 429, "retry", 'The service is limiting requests (HTTP 429); try again in 60 s. The service said: "Slow down." Waiting, then reading the record again.'],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["PATCH", 200, "applied", ""],
    ],
    applied: 1,
  },
  "asked to wait (429) 61 s, longer than the client waits": {
    patch: () => json(429, { status: 429, error: "Slow down." }, { "retry-after": "61" }),
    outcome: "not-sent",
    status: () => `Not sent ${AT}: The service asks to wait 61 s before more changes: not sent. Run Sync states again later.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 429, "not-sent", "The service asks to wait 61 s before more changes: not sent. Run Sync states again later."],
    ],
    applied: 0,
  },
  // The key refused on the read that would settle it: the run stops there, as for any refusal of the key.
  "an answer for another record, then the read refused for the key": {
    get: (n, pass) => (n === 1 ? pass() : json(401, { status: 401, error: "Invalid API key" })),
    patch: () => json(200, { ...otherAnswer(), id: "00000000-0000-4000-8000-000000000000" }),
    outcome: "unconfirmed",
    status: (w) => `Unconfirmed ${AT}: ${unsettled(w)}`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 200, "unconfirmed", `The service answered 200, but ${OTHER}: not taken as applied. Reading the record to settle it.`],
      ["read (GET)", 401, "unconfirmed", `${unsettled(w)} Not sent again.`],
    ],
    applied: 0,
    summary: (w) => `1 unconfirmed (run Sync states again). ${unsettled(w)}`,
  },
  "an answer for another record, and the record gone when read": {
    get: (n, pass) => (n === 1 ? pass() : json(404, { status: 404, error: "Expense not found" })),
    patch: () => json(200, { ...otherAnswer(), id: "00000000-0000-4000-8000-000000000000" }),
    outcome: "conflict",
    status: () => `Conflict, not sent ${AT}: The service answered 200, but ${OTHER}, and the record no longer exists on the server. Refresh the table.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 200, "unconfirmed", `The service answered 200, but ${OTHER}: not taken as applied. Reading the record to settle it.`],
      ["read (GET)", 404, "conflict", `Read the record to settle it: it no longer exists on the server (the service had answered 200, but ${OTHER}). Not sent again. Refresh the table.`],
    ],
    applied: 0,
  },
  "an answer for another record, and someone else's values when read": {
    patch: async (_n, _pass, id) => {
      await updateExpense(f.client, f.sub, id, { state: "paid", paid_id: "PAY-X" });
      return json(200, { ...otherAnswer(), id: "00000000-0000-4000-8000-000000000000" });
    },
    outcome: "conflict",
    status: () => `Conflict, not sent ${AT}: The service answered 200, but ${OTHER}, and the record now reads paid, Paid ID PAY-X, not what this row asks. Refresh the table.`,
    lines: () => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", 200, "unconfirmed", `The service answered 200, but ${OTHER}: not taken as applied. Reading the record to settle it.`],
      ["read (GET)", 200, "conflict", `Read the record to settle it: it is now paid, Paid ID PAY-X, not what this row asks (the service answered 200, but ${OTHER}). Not sent again. Refresh the table.`],
    ],
    applied: 0,
  },
  "a lost answer, then the PATCH refused for the key": {
    patch: (n) => (n === 1 ? lost() : json(401, { status: 401, error: "Invalid API key" })),
    outcome: "unconfirmed",
    status: (w) => `Unconfirmed ${AT}: ${refusedKey(w)}`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["PATCH", 401, "unconfirmed", refusedKey(w)],
    ],
    applied: 0,
  },
  "a lost answer, then asked to wait an hour": {
    patch: (n) => (n === 1 ? lost() : json(429, { status: 429, error: "Slow down." }, { "retry-after": "3600" })),
    outcome: "unconfirmed",
    status: () => `Unconfirmed ${AT}: The service asks to wait 3600 s before more changes: not sent. Run Sync states again later.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["PATCH", 429, "unconfirmed", "The service asks to wait 3600 s before more changes: not sent. Run Sync states again later."],
    ],
    applied: 0,
  },
  "cancelled while the record is read before sending": {
    get: (_n, pass, _id, cancel) => {
      cancel();
      return pass();
    },
    outcome: "not-sent",
    status: () => `Not sent ${AT}: Cancelled: the rest was not sent.`,
    lines: () => [["PATCH", "", "sending", SENDING], ["read (GET)", "", "not-sent", "Cancelled: the rest was not sent."]],
    applied: 0,
  },
  // Whether the lost PATCH landed is not known: it may have.
  "a lost answer, then cancelled while the record is read": {
    get: (n, pass, _id, cancel) => {
      if (n === 2) cancel();
      return pass();
    },
    patch: lost,
    outcome: "unconfirmed",
    status: () => `Unconfirmed ${AT}: Sent, but the service could not be reached to confirm it (Cancelled). Run Sync states again: it reads the record before sending.`,
    lines: (w) => [
      ["PATCH", "", "sending", SENDING],
      ["PATCH", "", "unknown", `${unreachable(w, "PATCH")} Reading the record before anything else.`],
      ["PATCH", "", "sending", `Attempt 2. ${SENDING}`],
      ["read (GET)", "", "unconfirmed", "Sent, but the service could not be reached to confirm it (Cancelled). Run Sync states again: it reads the record before sending. Not sent again."],
    ],
    applied: 0,
  },
};

const OTHER = 'the answer is for record "00000000-0000-4000-8000-000000000000", not this one';
/** A well-formed expense answer (the fields the client checks), to be given another id. */
function otherAnswer() {
  const other = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved")[1];
  return { ...other, state: "accounted", accounted_id: "ACC-1" };
}
const refusedKey = (w: Words) =>
  `The API key was refused for enterprise ${w.enterprise}. Check the key and the enterprise id in the connection settings. The service said: "Invalid API key".`;
const unsettled = (w: Words) => `Sent, and the service answered 200, but ${OTHER}; the record could not be read to settle it (${refusedKey(w).replace(/\.$/, "")}). ` +
  "Run Sync states again: it reads the record before sending.";
const unreachable = (w: Words, method: string) => `Could not reach the service at ${w.origin} while ${method === "PATCH" ? "updating" : "reading"} ${w.record}: fetch failed.`;
const failed = (w: Words) => `The service failed (HTTP 500) while updating ${w.record}; try again later. The service said: "Internal error"`;

it.each(Object.entries(CASES))("%s", async (_name, c) => {
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  edit(f, table, e.id, { State: "accounted", "Accounted ID": "ACC-1" });
  const preview = await previewSync(f.workbook, table);
  const seen = { GET: 0, PATCH: 0 };
  let decided = false;
  const controller = new AbortController();
  const client = clientWith(f, (inner) => async (request: RawRequest) => {
    const mine = request.url.includes(`/expenses/${e.id}/`);
    if (!mine || decided) return inner(request);
    const n = ++seen[request.method];
    const step = request.method === "GET" ? c.get : c.patch;
    return step ? step(n, () => inner(request), e.id, () => controller.abort()) : inner(request);
  }, { retry: { retries: 0 }, sleep: async () => undefined });
  const report = await runSync(client, f.workbook, preview, {
    now: NOW, runId: "r", maxAttempts: c.maxAttempts, signal: controller.signal, onProgress: (done) => (decided = done === 1),
  });
  const w: Words = {
    id: e.id, path: `/public/v1/enterprises/${f.enterprise.id}/subsidiaries/${f.sub}/expenses/${e.id}/`, origin: f.sandbox.baseUrl, enterprise: f.enterprise.id,
    record: `expense ${e.id.slice(0, 8)} of subsidiary ${f.sub.slice(0, 8)}`,
  };
  expect(report.results.map((r) => r.outcome)).toEqual([c.outcome]);
  expect(cellOf(f, table, e.id, "Sync status")).toBe(c.status(w));
  const j = tableView(f.excel, JOURNAL_TABLE);
  const lines = j.rows.filter((r) => r[j.column("Record ID")] === e.id)
    .map((r) => [r[j.column("Request")], r[j.column("Fields sent")], r[j.column("HTTP status")], r[j.column("Outcome")], r[j.column("Message")]]);
  // Only a PATCH's lines carry what it sends.
  expect(lines).toEqual(c.lines(w).map(([request, status, outcome, message]) => [request, request === "PATCH" ? BODY : "", status, outcome, message]));
  // The request's path is in the Exact request column only: no message names it.
  expect(lines.flat().join(" ")).not.toContain("/public/v1/");
  expect(f.sandbox.store.transitionsOf(e.id).filter((t) => t.to === "accounted")).toHaveLength(c.applied);
  if (c.summary) expect(report.summary).toBe(c.summary(w));
});
