/**
 * How the adapter cuts rows into requests: each row measured once, in order; a chunk closed before the row
 * that would take it past the budget (a row larger than the budget goes alone); no empty chunk. A row's
 * number formats cost their JSON, counted without building it.
 */
import { bytesOfFormats, chunkRows } from "../../src/sheets/excel-adapter";

describe("chunkRows", () => {
  const chunks = (sizes: number[], budget: number) => {
    const asked: number[] = [];
    const out = chunkRows(sizes.length, (i) => (asked.push(i), sizes[i]), budget);
    return { out, asked };
  };

  it("measures each row once, in order, and puts rows that fit the budget together", () => {
    expect(chunks([10, 10, 10], 100)).toEqual({ out: [[0, 3]], asked: [0, 1, 2] });
    expect(chunks([10, 10, 10], 30).out).toEqual([[0, 3]]); // exactly the budget fits
    expect(chunks([10, 10, 10], 29).out).toEqual([[0, 2], [2, 3]]);
    expect(chunks([10, 10, 10, 10, 10], 20).out).toEqual([[0, 2], [2, 4], [4, 5]]);
  });

  it("a row larger than the budget goes alone; no chunk is empty, and no rows make no chunk", () => {
    expect(chunks([50, 10, 60, 10], 40).out).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
    expect(chunks([50], 40).out).toEqual([[0, 1]]);
    expect(chunks([], 40)).toEqual({ out: [], asked: [] });
  });
});

describe("bytesOfFormats", () => {
  const json = (formats: (string | null)[]) => Buffer.byteLength(JSON.stringify(formats), "utf8");

  it("counts a row's formats as their JSON (and one comma), null or text, escapes and non-ASCII too", () => {
    const rows: (string | null)[][] = [
      [null], ["@"], [null, "@", "#,##0.00", null], ['#,##0.00 "€"', "yyyy-mm-dd hh:mm", "0.0%"], ["[Red]-#,##0.00;\\\"x\\\""], ["日本"],
    ];
    for (const formats of rows) expect(bytesOfFormats(formats)).toBe(json(formats) + 1);
    expect(bytesOfFormats([])).toBe(2);
  });

  it("a shared (frozen) row is measured once and keeps its count; a row that may change is measured each time", () => {
    const shared = Object.freeze(["@", "0.00"]);
    expect(bytesOfFormats(shared)).toBe(json([...shared]) + 1);
    expect(bytesOfFormats(shared)).toBe(json([...shared]) + 1);
    const open: (string | null)[] = ["@"];
    expect(bytesOfFormats(open)).toBe(json(["@"]) + 1);
    open.push("#,##0.00");
    expect(bytesOfFormats(open)).toBe(json(open) + 1);
  });
});
