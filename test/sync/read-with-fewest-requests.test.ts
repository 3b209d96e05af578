/**
 * Records are read again with whichever costs fewer requests: one GET each when there are no more records
 * than states; otherwise the first page of each state's list, then the rest of the lists only when their
 * remaining pages are fewer than the GETs of the records the first pages did not show (a tie goes to the GETs).
 * Counted over the wire against a sandbox of 2,500 accounted expenses (three pages of 1,000).
 */
import type { TrackedValues } from "../../src/sheets";
import { readCurrent } from "../../src/sync/read-current";
import { withExcel, type ExcelFixture } from "../support/excel";
import { clientWith } from "../support/sync";
import { Recorder } from "./recorder";

let f: ExcelFixture;
afterAll(() => f?.sandbox.close());

let onFirstPage: string[];
let offFirstPage: string[];
beforeAll(async () => {
  f = await withExcel({ scale: 17 });
  f.sandbox.store.expensesOf(f.sub).forEach((e, i) => Object.assign(e, i < 2500
    ? { state: "accounted", accounted_id: `ACC-${i}`, paid_id: null, paid_at: null }
    : { state: "approved", accounted_id: null, paid_id: null, paid_at: null }));
  const first = await f.call("GET", `${f.prefix}/subsidiaries/${f.sub}/expenses/?state=accounted&page=1&page_size=1000`);
  expect(first.json.count).toBe(2500);
  const shown = new Set((first.json.results as { id: string }[]).map((r) => r.id));
  const accounted = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "accounted").map((e) => e.id);
  onFirstPage = accounted.filter((id) => shown.has(id));
  offFirstPage = accounted.filter((id) => !shown.has(id));
});

async function read(ids: string[], states: string[]) {
  const recorder = new Recorder();
  const client = clientWith(f, (t) => recorder.wrap(t));
  const current = await readCurrent(client, { resource: "expense", subsidiaryId: f.sub }, ids, states);
  // Every record read, with the server's values.
  expect(ids.map((id) => (current.get(id) as TrackedValues | null | undefined)?.state)).toEqual(ids.map(() => "accounted"));
  const log = recorder.log;
  return { lists: log.filter((e) => e.kind === "list").length, gets: log.filter((e) => e.kind === "one").map((e) => e.ids[0]) };
}

it("one record, one state: one GET, no list", async () => {
  expect(await read(offFirstPage.slice(0, 1), ["accounted"])).toEqual({ lists: 0, gets: offFirstPage.slice(0, 1) });
});

it("two records, two states: two GETs, no list", async () => {
  const ids = offFirstPage.slice(0, 2);
  const { lists, gets } = await read(ids, ["accounted", "paid"]);
  expect([lists, gets.sort()]).toEqual([0, [...ids].sort()]);
});

it("three records the first page does not show, two pages left: the two pages (3 list requests), no GET", async () => {
  expect(await read(offFirstPage.slice(0, 3), ["accounted"])).toEqual({ lists: 3, gets: [] });
});

it("two records the first page does not show, two pages left (a tie): the first page, then the two GETs", async () => {
  const ids = offFirstPage.slice(0, 2);
  const { lists, gets } = await read(ids, ["accounted"]);
  expect([lists, gets.sort()]).toEqual([1, [...ids].sort()]);
});

it("two records on the first page and two not: the first page shows two, the other two by GET", async () => {
  const missed = offFirstPage.slice(5, 7);
  const { lists, gets } = await read([...onFirstPage.slice(0, 2), ...missed], ["accounted"]);
  expect([lists, gets.sort()]).toEqual([1, [...missed].sort()]);
});
