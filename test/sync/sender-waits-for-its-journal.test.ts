/**
 * One record's sender (syncRecord) and the run around it: no attempt leaves before its "sending" line is in
 * the journal (a line that cannot be written stops the record: not sent, or unconfirmed when an earlier
 * PATCH may have landed), none leaves once the run stopped (said as "not sent again" after a lost answer), and
 * a service failing every time is tried four times by default.
 */
import { trackedOf } from "../../src/sheets";
import type { JournalEntry } from "../../src/sync";
import { syncRecord, type RecordHooks } from "../../src/sync/sync-record";
import { withExcel, type ExcelFixture } from "../support/excel";
import { clientWith } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const AT = new Date("2026-11-21T10:00:00Z");
const PATCH = { state: "accounted" as const, accounted_id: "ACC-1" };

/** Syncs one approved expense; `patchAnswer` may break the n-th PATCH (1-based); returns what went over the wire and the journal. */
async function send(hooks: Partial<RecordHooks>, patchAnswer: (n: number) => "pass" | "lost" | 500 = () => "pass") {
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  const wire: string[] = [];
  let patches = 0;
  const client = clientWith(f, (inner) => async (request) => {
    wire.push(request.method);
    if (request.method !== "PATCH") return inner(request);
    const what = patchAnswer(++patches);
    if (what === "lost") throw new TypeError("fetch failed");
    if (what === 500) return { status: 500, headers: new Headers({ "content-type": "application/json" }), text: '{"status":500,"error":"Internal error"}' };
    return inner(request);
  }, { retry: { retries: 0 } });
  const lines: JournalEntry[] = [];
  const result = await syncRecord(client, { resource: "expense", subsidiaryId: f.sub }, e.id, trackedOf(e), PATCH, {
    log: (entry) => lines.push(entry), beforeAttempt: async () => undefined, maySend: () => true, stopMessage: () => "", ...hooks,
  }, { now: () => AT });
  return { result, wire, lines: lines.map((l) => [l.request, l.outcome, l.message]), id: e.id };
}

it("the first attempt's line cannot be written: nothing read, nothing sent", async () => {
  const { result, wire, lines } = await send({ beforeAttempt: () => Promise.reject(new Error("disk full")) });
  expect(result).toEqual({ outcome: "not-sent", message: "The journal could not be written, so nothing more was sent: disk full" });
  expect([wire, lines]).toEqual([[], []]);
});

it("after a lost answer, the second attempt's line cannot be written: unconfirmed, and not read or sent again", async () => {
  const { result, wire } = await send({ beforeAttempt: (attempt) => (attempt === 1 ? Promise.resolve() : Promise.reject(new Error("disk full"))) }, () => "lost");
  expect(result).toEqual({ outcome: "unconfirmed", message: "The journal could not be written, so nothing more was sent: disk full" });
  expect(wire).toEqual(["GET", "PATCH"]);
});

it("after a lost answer that had not landed, the run stopped: the read says it was not sent again, and why", async () => {
  let calls = 0;
  const { result, wire, lines } = await send({ maySend: () => ++calls === 1, stopMessage: () => "Cancelled: the rest was not sent." }, () => "lost");
  expect(result).toEqual({ outcome: "not-sent", message: "Cancelled: the rest was not sent." });
  expect(wire).toEqual(["GET", "PATCH", "GET"]);
  expect(lines.at(-1)).toEqual(["read", "not-sent",
    "Read the record after the lost answer: it still reads approved, as loaded. Then the run stopped, so it was not sent again: Cancelled: the rest was not sent."]);
});

it("a service failing every time: four attempts by default, each read first, then not sent", async () => {
  const { result, wire } = await send({}, () => 500);
  expect(result).toEqual({ outcome: "not-sent", message: "Not applied: the service failed 4 times in a row. Run Sync states again later." });
  expect(wire).toEqual(["GET", "PATCH", "GET", "PATCH", "GET", "PATCH", "GET", "PATCH", "GET"]);
});
