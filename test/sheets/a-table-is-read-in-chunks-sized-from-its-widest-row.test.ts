/**
 * A table body is read in chunks sized from its widest row so far: first a small one (2,000 cells), then as
 * many rows as the response budget holds at one and a half times the widest row; a chunk Excel refuses as too
 * large is read again in halves; every cell comes back in sheet order, whatever the chunks.
 */
import { readColumnsOf, toRows } from "../../src/sheets/excel/read";
import type { XContext, XWorksheet } from "../../src/sheets/excel/api";
import type { CellValue } from "../../src/sheets";

/** A sheet of `grid` (values) and `formulas`, whose requests are logged as "rows@first" per range; Excel refuses a request of more than `most` cells. */
function sheetOf(grid: CellValue[][], formulas: CellValue[][] = grid, most = Infinity, refusal = "ResponsePayloadSizeLimitExceeded") {
  const log: string[] = [];
  let pending: { row: number; column: number; count: number; fill: (target: Record<string, unknown>) => void; target: Record<string, unknown> }[] = [];
  const sheet = {
    getRangeByIndexes: (row: number, column: number, count: number, width: number) => {
      expect(width).toBe(1);
      const target: Record<string, unknown> = {};
      target.load = (props: string[]) => {
        pending.push({
          row, column, count, target,
          fill: (t) => {
            if (props.includes("values")) t.values = grid.slice(row, row + count).map((line) => [line[column]]);
            if (props.includes("formulas")) t.formulas = formulas.slice(row, row + count).map((line) => [line[column]]);
          },
        });
        return target;
      };
      return target;
    },
  } as unknown as XWorksheet;
  const context = {
    sync: async () => {
      const asked = pending;
      pending = [];
      const cells = asked.reduce((sum, p) => sum + p.count, 0);
      log.push(`${asked[0].count}@${asked[0].row}${cells > most ? " refused" : ""}`);
      if (log.length > 50) throw new Error("the read does not end");
      if (cells > most) throw Object.assign(new Error("too large"), { code: refusal });
      for (const p of asked) p.fill(p.target);
    },
  } as unknown as XContext;
  return { sheet, context, log };
}

const column = (count: number, text: (i: number) => string): CellValue[][] => Array.from({ length: count }, (_, i) => [text(i)]);

describe("reading a table's columns", () => {
  it("reads nothing, and gives an empty list per column, when there are no rows or no columns", async () => {
    const s = sheetOf(column(3, (i) => `r${i}`));
    expect(await readColumnsOf(s.context, s.sheet, 0, 0, [0], ["values"])).toEqual({ values: [[]], formulas: [[]] });
    expect(await readColumnsOf(s.context, s.sheet, 0, 3, [], ["values"])).toEqual({ values: [], formulas: [] });
    expect(s.log).toEqual([]);
  });

  it("reads 2,000 cells first, then as many rows as the budget holds at 1.5 times the widest row, in sheet order", async () => {
    // "abc" costs 3 + 2 quotes + 1 comma + 2 = 8 bytes a row: 1,300 / (8 × 1.5 + 1) = 100 rows a chunk.
    const s = sheetOf(column(2_250, (i) => (i < 2_000 ? "abc" : "xyz")));
    const read = await readColumnsOf(s.context, s.sheet, 0, 2_250, [0], ["values"], 1_300);
    expect(s.log).toEqual(["2000@0", "100@2000", "100@2100", "50@2200"]);
    expect(read.values[0]).toEqual(Array.from({ length: 2_250 }, (_, i) => (i < 2_000 ? "abc" : "xyz")));
    expect(read.formulas).toEqual([[]]);
  });

  it("splits the first 2,000 cells between the columns and properties read, and starts at the row asked", async () => {
    const grid = Array.from({ length: 600 }, (_, i) => [`a${String(i).padStart(3, "0")}`, `b${String(i).padStart(3, "0")}`]);
    const s = sheetOf(grid, grid.map(([a, b]) => [`=${a}`, `=${b}`]));
    const read = await readColumnsOf(s.context, s.sheet, 100, 500, [0, 1], ["values", "formulas"], 100_000_000);
    expect(s.log).toEqual(["500@100"]);
    const s2 = sheetOf(grid);
    await readColumnsOf(s2.context, s2.sheet, 1, 599, [1, 0], ["values", "formulas"], 4_000);
    // 2,000 / (2 columns × 2 properties) = 500 rows; then rows of 4 cells of 4 characters (9 bytes each): 4,000 / (36 × 1.5 + 1) = 72.
    expect(s2.log).toEqual(["500@1", "72@501", "27@573"]);
    expect(read.values).toEqual([grid.slice(100).map((l) => l[0]), grid.slice(100).map((l) => l[1])]);
    expect(read.formulas).toEqual([grid.slice(100).map((l) => `=${l[0]}`), grid.slice(100).map((l) => `=${l[1]}`)]);
  });

  it("sizes chunks from the widest row seen, not the last one", async () => {
    // Rows 0–1,999 of 98 characters (100 + 1 + 2 = 103 bytes); the rest of 1 character (6 bytes).
    const s = sheetOf(column(2_400, (i) => (i < 2_000 ? "w".repeat(98) : "n")));
    await readColumnsOf(s.context, s.sheet, 0, 2_400, [0], ["values"], 15_600);
    // 15,600 / (103 × 1.5 + 1) = 100.3 → 100, and stays 100 over the narrow rows.
    expect(s.log).toEqual(["2000@0", "100@2000", "100@2100", "100@2200", "100@2300"]);
  });

  it("reads a chunk Excel refuses as too large again in halves, and one row it refuses fails the read", async () => {
    const s = sheetOf(column(10, (i) => `r${i}`), undefined, 3);
    // "r0" costs 7 bytes a row: 40 / (7 × 1.5 + 1) = 3 rows a chunk once one is read.
    const read = await readColumnsOf(s.context, s.sheet, 0, 10, [0], ["values"], 40);
    expect(s.log).toEqual(["10@0 refused", "5@0 refused", "3@0", "3@3", "3@6", "1@9"]);
    expect(read.values[0]).toEqual(Array.from({ length: 10 }, (_, i) => `r${i}`));
    const one = sheetOf(column(4, (i) => `r${i}`), undefined, 0);
    await expect(readColumnsOf(one.context, one.sheet, 0, 4, [0], ["values"])).rejects.toThrow("too large");
    expect(one.log).toEqual(["4@0 refused", "2@0 refused", "1@0 refused"]);
  });

  it("fails at once on any other refusal", async () => {
    const s = sheetOf(column(10, (i) => `r${i}`), undefined, 3, "GeneralException");
    await expect(readColumnsOf(s.context, s.sheet, 0, 10, [0], ["values"])).rejects.toThrow("too large");
    expect(s.log).toEqual(["10@0 refused"]);
  });

  it("a chunk is at least one row, however wide", async () => {
    const s = sheetOf(column(2_003, (i) => (i < 2_000 ? "x".repeat(1_000) : "y")));
    await readColumnsOf(s.context, s.sheet, 0, 2_003, [0], ["values"], 10);
    expect(s.log).toEqual(["2000@0", "1@2000", "1@2001", "1@2002"]);
  });
});

it("reads a table of more than 2,000 columns a row at a time", async () => {
  const grid = [0, 1].map((r) => Array.from({ length: 2_001 }, (_, c) => `${r}:${c}`));
  const s = sheetOf(grid);
  const columns = Array.from({ length: 2_001 }, (_, c) => c);
  const read = await readColumnsOf(s.context, s.sheet, 0, 2, columns, ["values"]);
  expect(s.log).toEqual(["1@0", "1@1"]);
  expect(toRows(read.values)).toEqual(grid);
});

describe("columns as rows", () => {
  it("gives row r as the r-th cell of every column, and no rows for no columns", () => {
    expect(toRows([["a1", "a2"], [1, 2], [true, false]])).toEqual([["a1", 1, true], ["a2", 2, false]]);
    expect(toRows([])).toEqual([]);
    expect(toRows([[]])).toEqual([]);
  });
});
