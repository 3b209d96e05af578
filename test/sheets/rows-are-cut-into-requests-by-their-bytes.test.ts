/**
 * How the adapter cuts rows into requests: each row measured once, in order; a chunk closed before the row
 * that would take it past the budget (a row larger than the budget goes alone); no empty chunk. A row's
 * number formats cost their JSON, counted without building it.
 */
import { ExcelWorkbook } from "../../src/sheets/excel";
import { bytesOfFormats, chunkRows } from "../../src/sheets/excel/budget";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";

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

describe("a patch of many rows (Refresh of what changed)", () => {
  it("goes in several requests, each within what Excel accepts, when its cells pass one request's budget", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const rows = 6_000;
    const text = (r: number, c: number, v: string) => `${v}${r}-${c}-`.padEnd(300, v);
    const header = ["ID", "A", "B", "C"];
    await workbook.writeTable({
      sheetName: "Data", tableName: "T", header, rows: Array.from({ length: rows }, (_, r) => [`r${r}`, "", "", ""]),
      numberFormats: header.map(() => "@"), editable: header.map(() => false), dropdowns: header.map(() => null),
    });
    const before = excel.stats.requests.length;
    await workbook.updateTable("T", {
      header: ["A", "B", "C"], editable: [false, false, false], dropdowns: [null, null, null],
      rows: Array.from({ length: rows }, (_, r) => ({ row: r, values: [0, 1, 2].map((c) => text(r, c, "x")), formats: ["@", "@", "@"] })),
    });
    const sent = excel.stats.requests.slice(before);
    expect(sent.reduce((sum, r) => sum + r.bytes, 0)).toBeGreaterThan(PAYLOAD_LIMIT_BYTES);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.every((r) => r.bytes <= PAYLOAD_LIMIT_BYTES)).toBe(true);
    const t = excel.model.table("T")!;
    for (const r of [0, 2_999, rows - 1]) expect(t.sheet.cell(t.area.row + 1 + r, t.area.column + 3)?.value).toBe(text(r, 2, "x"));
  });
});

it("a table written with no rows (its one empty body row) reports 0 rows written of 0, never more than it was given", async () => {
  const workbook = new ExcelWorkbook(new FakeExcel());
  const heard: [number, number][] = [];
  await workbook.writeTable({
    sheetName: "Data", tableName: "T", header: ["ID"], rows: [], numberFormats: ["@"], editable: [false], dropdowns: [null],
    onProgress: (written, total) => heard.push([written, total]),
  });
  expect(heard.length).toBeGreaterThan(0);
  expect(heard.every(([written, total]) => written === 0 && total === 0)).toBe(true);
});
