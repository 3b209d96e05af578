/**
 * The confirmation after a run (confirmApplied) hands back as "overwritten" exactly the rows whose record it read
 * again and found changed, nothing else: none when every record still holds what this run sent, none when the
 * read could not be done (refused for the key, cancelled, or failed: then only its failure, in words), and a
 * row with no record of what its PATCH left is neither read nor reported.
 */
import { updateExpense, type RawRequest } from "../../src/api";
import { trackedOf } from "../../src/sheets";
import type { JournalEntry, RowResult } from "../../src/sync";
import { confirmApplied } from "../../src/sync/confirm";
import { withExcel, type ExcelFixture } from "../support/excel";
import { clientWith } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f.sandbox.close());

const AT = new Date("2026-11-21T10:00:00Z");

/** Two approved expenses moved to accounted (as a run's PATCHes would), with the rows that say so. */
async function twoApplied(): Promise<RowResult[]> {
  const records = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved").slice(0, 2);
  const results: RowResult[] = [];
  for (const [i, e] of records.entries()) {
    const patch = { state: "accounted" as const, accounted_id: `ACC-${i}` };
    const answer = await updateExpense(f.client, f.sub, e.id, patch);
    results.push({ id: e.id, rows: [i], outcome: "applied", message: "", from: "approved", to: "accounted", patch, sent: trackedOf(answer), at: AT });
  }
  return results;
}

/** confirmApplied through a transport that records its requests (and may answer them itself). */
async function confirm(applied: RowResult[], script: (request: RawRequest) => { status: number; text: string } | null = () => null, key?: string) {
  const requests: string[] = [];
  const client = clientWith(f, (inner) => async (request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname.split("/").slice(-3).join("/")}`);
    const scripted = script(request);
    if (scripted) return { ...scripted, headers: new Headers({ "content-type": "application/json" }) };
    return inner(request);
  }, { retry: { retries: 0 }, ...(key ? { apiKey: key } : {}) });
  const lines: JournalEntry[] = [];
  const confirmed = await confirmApplied(client, { resource: "expense", subsidiaryId: f.sub }, applied, (e) => lines.push(e), () => AT);
  return { confirmed, lines, requests };
}

it("every record still holds what this run sent: nothing overwritten, no failure, no journal line", async () => {
  const applied = await twoApplied();
  const { confirmed, lines, requests } = await confirm(applied);
  expect(confirmed).toEqual({ overwritten: [], notConfirmed: [], failure: "" });
  expect(lines).toEqual([]);
  // Two records, one state: one list of the accounted expenses reads both.
  expect(requests).toEqual([`GET ${f.sub}/expenses/`]);
});

it("the read refused for the key: nothing reported overwritten, the key's refusal as the failure", async () => {
  const applied = await twoApplied();
  const { confirmed, lines } = await confirm(applied, () => null, "not-the-key");
  expect(confirmed.overwritten).toEqual([]);
  expect(confirmed.failure).toMatch(/^The API key was refused for enterprise /);
  expect(lines).toEqual([]);
});

it("the read failing: nothing reported overwritten, the failure in words", async () => {
  const applied = await twoApplied();
  const { confirmed, lines } = await confirm(applied, () => ({ status: 400, text: JSON.stringify({ status: 400, error: "Unsupported filter" }) }));
  expect(confirmed).toEqual({
    overwritten: [], notConfirmed: [],
    failure: `The records this sync changed could not be read again to confirm them: The service refused the request for page 1 of the accounted expenses of subsidiary ${f.sub.slice(0, 8)}: Unsupported filter.`,
  });
  expect(lines).toEqual([]);
});

it("one record changed by someone else: only that row comes back overwritten; a row without what its PATCH left is not read", async () => {
  const [kept, changed] = await twoApplied();
  await updateExpense(f.client, f.sub, changed.id, { state: "paid", paid_id: "PAY-COLLEAGUE" });
  const unrecorded: RowResult = { ...kept, id: f.sandbox.store.expensesOf(f.sub).find((e) => e.state === "approved")!.id, sent: undefined };
  const { confirmed, lines, requests } = await confirm([kept, changed, unrecorded]);
  expect(confirmed.failure).toBe("");
  expect(confirmed.overwritten.map((r) => [r.id, r.outcome])).toEqual([[changed.id, "overwritten"]]);
  expect(lines.map((l) => [l.id, l.request, l.outcome])).toEqual([[changed.id, "read", "overwritten"]]);
  // Two records to read, one state: a list of the accounted ones, then the one it no longer shows by GET.
  expect(requests).toEqual([`GET ${f.sub}/expenses/`, `GET expenses/${changed.id}/`]);
});
