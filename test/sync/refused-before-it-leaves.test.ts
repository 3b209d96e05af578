/**
 * A PATCH the client itself refuses (a body the service's rules forbid; the planner never makes one, but the
 * sender does not rely on it) never leaves: the record is not sent, and its journal line says the request
 * was refused here, with nothing sent.
 */
import { trackedOf } from "../../src/sheets";
import type { JournalEntry } from "../../src/sync";
import { syncRecord } from "../../src/sync/sync-record";
import { withExcel, type ExcelFixture } from "../support/excel";
import { clientWith } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

it("accounted with a Paid ID: read, then refused before it left; no PATCH over the wire", async () => {
  const e = f.sandbox.store.expensesOf(f.sub).find((x) => x.state === "approved")!;
  const methods: string[] = [];
  const client = clientWith(f, (inner) => async (request) => {
    methods.push(request.method);
    return inner(request);
  });
  const lines: JournalEntry[] = [];
  const at = new Date("2026-11-21T10:00:00Z");
  const result = await syncRecord(client, { resource: "expense", subsidiaryId: f.sub }, e.id, trackedOf(e), { state: "accounted", paid_id: "PAY-1" }, {
    log: (entry) => lines.push(entry), beforeAttempt: async () => undefined, maySend: () => true, stopMessage: () => "",
  }, { now: () => at });
  const refused = "paid_id and paid_at must not be sent when state is 'accounted'.";
  expect(result).toEqual({ outcome: "not-sent", message: refused });
  expect(methods).toEqual(["GET"]);
  expect(lines).toEqual([{
    at, id: e.id, from: "approved", to: "accounted", request: "none", sent: "", exact: "", httpStatus: null, outcome: "not-sent",
    message: `${refused} Refused before it left: nothing was sent.`,
  }]);
  expect(f.sandbox.store.transitionsOf(e.id)).toHaveLength(0);
});
