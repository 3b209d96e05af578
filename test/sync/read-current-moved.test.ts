/**
 * Confirming a run's records while another client moves records between states: the lists stop with
 * DataMovedError / PaginationError, and what they had not read yet is read one record at a time.
 */
import type { TrackedValues } from "../../src/sheets";
import { readCurrent } from "../../src/sync/read-current";
import { Recorder } from "./recorder";
import { clientWith } from "../support/sync";
import { withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

it("a list whose second page repeats the first (records moved meanwhile) is dropped; the records it missed are read by GET", async () => {
  f = await withExcel({ scale: 17 });
  const accounted = f.sandbox.store.expensesOf(f.sub).slice(0, 1200);
  for (const e of accounted) Object.assign(e, { state: "accounted", accounted_id: `ACC-${e.id.slice(0, 4)}` });
  const recorder = new Recorder();
  let firstPage: string | null = null;
  const client = clientWith(f, (inner) => recorder.wrap(async (request) => {
    const url = new URL(request.url);
    const isList = /\/expenses\/?$/.test(url.pathname);
    if (isList && Number(url.searchParams.get("page") ?? 1) >= 2 && firstPage) {
      // Records moved meanwhile: the second page shows what the first did.
      return { status: 200, headers: new Headers({ "content-type": "application/json" }), text: firstPage };
    }
    const response = await inner(request);
    if (isList) firstPage = response.text;
    return response;
  }));
  const ids = accounted.map((e) => e.id);
  const current = await readCurrent(client, { resource: "expense", subsidiaryId: f.sub }, ids, ["accounted"]);
  // Every answer was about the record asked for: none is a WrongRecordError.
  const valuesOf = (id: string) => current.get(id) as TrackedValues | null | undefined;
  expect(ids.filter((id) => current.get(id) instanceof Error)).toEqual([]);
  expect(ids.filter((id) => valuesOf(id)?.state !== "accounted")).toEqual([]);
  expect(ids.map((id) => valuesOf(id)?.accounted_id)).toEqual(accounted.map((e) => e.accounted_id));
  const onFirstPage = new Set((JSON.parse(firstPage!) as { results: { id: string }[] }).results.map((r) => r.id));
  expect(onFirstPage.size).toBe(1000);
  const gets = recorder.log.filter((e) => e.kind === "one").map((e) => e.ids[0]).sort();
  expect(gets).toEqual(ids.filter((id) => !onFirstPage.has(id)).sort());
  expect(gets).toHaveLength(200);
});
