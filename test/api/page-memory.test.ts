/**
 * Issue 25, "a small page exhausts the add-in's memory": a page of 10^4, 10^5 and 10^6 empty records (30 KB
 * to 3 MB, with and without a count) and a record answer holding as many values are each refused with a
 * clear error, and the heap after a full collection is within 128 KB of the heap before. Measured in a child
 * process with --expose-gc and a 64 MB heap: before the fix a page of 10^4 alone took 195 MB, so that child
 * died of it. Bytes only, never time.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../support/process";

interface Measured {
  name: string;
  records: number;
  bytes: number;
  before: number;
  after: number;
  error: { name: string; message: string } | null;
}

const RETAINED_AT_MOST = 128 * 1024;

let lines: Measured[] = [];
beforeAll(() => {
  const child = spawnSync(join(ROOT, "node_modules", ".bin", "tsx"), ["--expose-gc", "--max-old-space-size=64", join(__dirname, "helpers", "page-memory.ts")], {
    cwd: ROOT, encoding: "utf8", timeout: 120_000,
  });
  if (child.status !== 0) throw new Error(`the child failed (${child.status ?? child.signal}): ${child.stderr.slice(0, 2000)}`);
  lines = child.stdout.trim().split("\n").map((line) => JSON.parse(line) as Measured);
}, 150_000);

const PAGE_REFUSED = "Page 1 of expenses holds more than 1,000 records, the page size asked for: the service ignores page_size. It was refused without being read. Loading stopped.";
const RECORD_REFUSED = "The service's answer for expense holds more than 2,112 values, more than a record needs: it was refused without being read.";

it("measured every case: three sizes, each as a page with and without a count and as a record", () => {
  expect(lines.map((l) => [l.name, l.records])).toEqual([10_000, 100_000, 1_000_000].flatMap((n) => [
    ["page with a count", n], ["page without a count", n], ["record", n],
  ]));
  // About three bytes a record, as the attack sent them.
  for (const l of lines) expect(l.bytes).toBeGreaterThanOrEqual(3 * l.records);
});

it.each([10_000, 100_000, 1_000_000])("a page of %i records is refused with a clear error and leaves the heap as it was", (records) => {
  for (const l of lines.filter((x) => x.records === records && x.name !== "record")) {
    expect(l.error).toEqual({ name: "PaginationError", message: PAGE_REFUSED });
    expect(l.after - l.before).toBeLessThan(RETAINED_AT_MOST);
  }
});

it.each([10_000, 100_000, 1_000_000])("a record answer holding %i values is refused with a clear error and leaves the heap as it was", (records) => {
  const l = lines.find((x) => x.records === records && x.name === "record")!;
  expect(l.error).toEqual({ name: "AnswerTooLargeError", message: RECORD_REFUSED });
  expect(l.after - l.before).toBeLessThan(RETAINED_AT_MOST);
});
