/**
 * A refresh's patch reaches Excel as few operations as its cells allow: each run of adjacent columns of
 * consecutive rows is one range (with its formats, and its fills as runs of one colour), cut wherever some row
 * writes one side of two columns and not the other, and where a range would pass a quarter of a request; the
 * requests, each within the budget, go one at a time, calculation suspended in all but the last. Rows are read
 * back in runs, as many a request as the response budget holds, a refused request asked again in halves.
 */
import { blocksOf, readRowsOf, rowRuns, writeBlocks } from "../../src/sheets/excel/patch";
import type { LocatedTable } from "../../src/sheets/excel/locate";
import type { XContext } from "../../src/sheets/excel/api";
import type { CellValue, RowPatch } from "../../src/sheets";

const BIG = { requestBytes: 4_000_000, operationBytes: 800 };

/** An Excel whose operations are logged as a person would read them (A1 addresses of sheet "S", table at B2). */
function recording(grid: CellValue[][] = [], most = Infinity) {
  const log: string[] = [];
  let pending: { range: Record<string, unknown>; row: number; column: number; rows: number; columns: number }[] = [];
  const a1 = (row: number, column: number, rows: number, columns: number) =>
    `${String.fromCharCode(65 + column)}${row + 1}:${String.fromCharCode(65 + column + columns - 1)}${row + rows}`;
  const sheet = {
    getRangeByIndexes: (row: number, column: number, rows: number, columns: number) => {
      const at = a1(row, column, rows, columns);
      const fill = { clear: () => log.push(`clear ${at}`) };
      Object.defineProperty(fill, "color", { set: (c: string) => log.push(`fill ${at} ${c}`) });
      const range: Record<string, unknown> = { format: { fill } };
      Object.defineProperty(range, "numberFormat", { set: (f: unknown) => log.push(`formats ${at} ${JSON.stringify(f)}`) });
      Object.defineProperty(range, "valuesAsJson", { set: (v: { basicValue: unknown }[][]) => log.push(`values ${at} ${JSON.stringify(v.map((l) => l.map((c) => c.basicValue)))}`) });
      // Reads ask for values alone: a bare load() would bring every property of the range, several times the bytes.
      range.load = (what: string) => {
        if (what !== "values") throw new Error(`load("${what}") asks more than the values`);
        pending.push({ range, row, column, rows, columns });
        return range;
      };
      return range;
    },
  };
  const context = {
    application: { suspendApiCalculationUntilNextSync: () => log.push("suspend") },
    sync: async () => {
      const asked = pending;
      pending = [];
      const cells = asked.reduce((sum, p) => sum + p.rows * p.columns, 0);
      if (asked.length > 0) log.push(`read ${asked.map((p) => a1(p.row, p.column, p.rows, p.columns)).join(" ")}${cells > most ? " refused" : ""}`);
      else log.push("sync");
      if (log.length > 200) throw new Error("does not end");
      if (cells > most) throw Object.assign(new Error("too large"), { code: "ResponsePayloadSizeLimitExceeded" });
      for (const p of asked) p.range.values = grid.slice(p.row, p.row + p.rows).map((line) => line.slice(p.column, p.column + p.columns));
    },
  } as unknown as XContext;
  // The table's header is on row 2 (index 1), its first column B (index 1).
  const at = { sheet, top: 1, left: 1 } as unknown as LocatedTable;
  return { context, at, log };
}

async function written(rows: RowPatch[], columns: number[], budget = BIG) {
  const r = recording();
  const blocks = blocksOf(rows, columns, budget);
  const seen: number[] = [];
  await writeBlocks(r.context, r.at, blocks, budget, {
    firstRequest: () => r.log.push("first"), lastRequest: () => r.log.push("last"), onRows: (n) => seen.push(n),
  });
  return { log: r.log, rows: seen };
}

const row = (at: number, values: (CellValue | undefined)[], formats: (string | null)[] = values.map(() => null), fills?: (string | null | undefined)[]): RowPatch =>
  ({ row: at, values, formats, fills });

describe("the ranges of a patch", () => {
  it("consecutive rows writing the same adjacent columns are one range, whatever order the rows come in", async () => {
    const w = await written([row(1, ["b", 2]), row(0, ["a", 1]), row(2, ["c", 3])], [0, 1]);
    expect(w.log).toEqual(["first", "values B3:C5 [[\"a\",1],[\"b\",2],[\"c\",3]]", "last", "sync"]);
    expect(w.rows).toEqual([3]);
  });

  it("a gap between rows, or between columns, starts another range; columns are placed by the sheet's order", async () => {
    const w = await written([row(0, ["a", "x", 1]), row(2, ["c", "z", 3])], [0, 3, 1]);
    expect(w.log).toEqual([
      "first",
      "values B3:C3 [[\"a\",1]]", "values E3:E3 [[\"x\"]]",
      "values B5:C5 [[\"c\",3]]", "values E5:E5 [[\"z\"]]",
      "last", "sync",
    ]);
  });

  it("where one row writes a column and the next does not, every row is cut there, so the rows still share ranges", async () => {
    const w = await written([row(0, ["a", 1, "t0"]), row(1, ["b", 2, undefined]), row(2, ["c", 3, "t2"])], [0, 1, 2]);
    expect(w.log).toEqual(["first", "values B3:C5 [[\"a\",1],[\"b\",2],[\"c\",3]]", "values D3:D3 [[\"t0\"]]", "values D5:D5 [[\"t2\"]]", "last", "sync"]);
  });

  it("where a row leaves the first of two columns and the next writes both, every row is cut there too", async () => {
    const w = await written([row(0, ["a", 1]), row(1, [undefined, 2]), row(2, ["c", 3]), row(3, [undefined, 4])], [0, 1]);
    expect(w.log).toEqual(["first", "values B3:B3 [[\"a\"]]", "values C3:C6 [[1],[2],[3],[4]]", "values B5:B5 [[\"c\"]]", "last", "sync"]);
  });

  it("a row with nothing to write writes nothing", async () => {
    const w = await written([row(0, [undefined, undefined])], [0, 1]);
    expect(w.log).toEqual(["first", "last", "sync"]);
    expect(w.rows).toEqual([0]);
  });

  it("formats go with their range only where some cell has one", async () => {
    const w = await written([row(0, ["a", 1], [null, "0.00"]), row(1, ["b", 2], [null, null]), row(3, ["d", 4], [null, null])], [0, 1]);
    expect(w.log).toEqual([
      "first",
      "formats B3:C4 [[null,\"0.00\"],[null,null]]", "values B3:C4 [[\"a\",1],[\"b\",2]]",
      "values B6:C6 [[\"d\",4]]",
      "last", "sync",
    ]);
  });

  it("fills go as runs of one colour down a column; a fill on a cell whose value is left goes alone, before the ranges", async () => {
    const w = await written([
      row(0, ["a", 1], [null, null], ["#F00", undefined]),
      row(1, ["b", 2], [null, null], ["#F00", null]),
      row(2, ["c", 3], [null, null], ["#0F0", null]),
      row(3, ["d", 4], [null, null], ["#0F0", undefined]),
      row(4, ["e", undefined], [null, null], [undefined, "#00F"]),
    ], [0, 1]);
    expect(w.log).toEqual([
      "first",
      "fill C7:C7 #00F",
      // Row 4 writes only its first cell: every row is cut between the two columns.
      "values B3:B7 [[\"a\"],[\"b\"],[\"c\"],[\"d\"],[\"e\"]]", "fill B3:B4 #F00", "fill B5:B6 #0F0",
      "values C3:C6 [[1],[2],[3],[4]]", "clear C4:C5",
      "last", "sync",
    ]);
  });
});

it("fills of a range of two columns go per column, each in runs of one colour over consecutive rows", async () => {
  const w = await written([
    row(0, ["a", 1], [null, null], ["#F00", "#F00"]),
    row(1, ["b", 2], [null, null], ["#F00", "#0F0"]),
    row(3, ["d", 4], [null, null], ["#F00", "#0F0"]),
  ], [0, 1]);
  expect(w.log).toEqual([
    "first",
    "values B3:C4 [[\"a\",1],[\"b\",2]]", "fill B3:B4 #F00", "fill C3:C3 #F00", "fill C4:C4 #0F0",
    "values B6:C6 [[\"d\",4]]", "fill B6:B6 #F00", "fill C6:C6 #0F0",
    "last", "sync",
  ]);
});

it("fills of one colour down both columns of a range go as one run a column", async () => {
  const w = await written([0, 1, 2].map((i) => row(i, [`${i}`, i], [null, null], ["#F00", "#F00"])), [0, 1]);
  expect(w.log).toEqual(["first", "values B3:C5 [[\"0\",0],[\"1\",1],[\"2\",2]]", "fill B3:B5 #F00", "fill C3:C5 #F00", "last", "sync"]);
});

it("a row with no fill between two of the same colour breaks the run: its cell keeps its fill", async () => {
  const w = await written([row(0, ["a"], [null], ["#F00"]), row(1, ["b"], [null]), row(2, ["c"], [null], ["#F00"])], [0]);
  expect(w.log).toEqual(["first", "values B3:B5 [[\"a\"],[\"b\"],[\"c\"]]", "fill B3:B3 #F00", "fill B5:B5 #F00", "last", "sync"]);
});

describe("the requests of a patch", () => {
  const budget = { requestBytes: 8_000, operationBytes: 100 };
  const ranges = (log: string[]) => log.map((l) => l.replace(/ \[\[.*$/, ""));

  it("a range passing a quarter of the request budget is cut; requests are filled to the budget less four operations, calculation suspended in all but the last", async () => {
    // A number row costs 4 + 60 + 5 = 69 bytes; a range starts at two operations (200): 26 rows make 1,994 of the 2,000.
    // A request takes what fits in 8,000 − 400: three ranges (a fourth would make 7,976).
    const w = await written(Array.from({ length: 200 }, (_, i) => row(i, [i])), [0], budget);
    expect(ranges(w.log)).toEqual([
      "suspend", "first", "values B3:B28", "values B29:B54", "values B55:B80", "sync",
      "suspend", "values B81:B106", "values B107:B132", "values B133:B158", "sync",
      "values B159:B184", "values B185:B202", "last", "sync",
    ]);
    expect(w.rows).toEqual([78, 156, 200]);
  });

  it("a range is cut where its bytes would pass a quarter of the request (a null format costs 5 bytes, as JSON's null)", async () => {
    // A quarter of 8,048 is 2,012: 26 rows (1,994) fit, a 27th (2,063) does not.
    const w = await written(Array.from({ length: 30 }, (_, i) => row(i, [i])), [0], { requestBytes: 8_048, operationBytes: 100 });
    expect(ranges(w.log).filter((l) => l.startsWith("values"))).toEqual(["values B3:B28", "values B29:B32"]);
    // A quarter of 7,976 is exactly 1,994: 26 rows still fit.
    const exact = await written(Array.from({ length: 30 }, (_, i) => row(i, [i])), [0], { requestBytes: 7_976, operationBytes: 100 });
    expect(ranges(exact.log).filter((l) => l.startsWith("values"))).toEqual(["values B3:B28", "values B29:B32"]);
  });

  it("fills on cells whose value is left cost an operation each: a request takes them up to the budget less four operations, exactly", async () => {
    // 1,000 − 400 = 600: six fills of 100 bytes fill the first request exactly, the seventh goes in a second.
    const w = await written(Array.from({ length: 7 }, (_, i) => row(i * 2, [undefined], [null], ["#F00"])), [0], { requestBytes: 1_000, operationBytes: 100 });
    expect(w.log).toEqual([
      "suspend", "first", "fill B3:B3 #F00", "fill B5:B5 #F00", "fill B7:B7 #F00", "fill B9:B9 #F00", "fill B11:B11 #F00", "fill B13:B13 #F00", "sync",
      "fill B15:B15 #F00", "last", "sync",
    ]);
    expect(w.rows).toEqual([0, 0]);
  });

  it("a range over the whole budget still goes, alone, in the first request", async () => {
    const w = await written([row(0, ["x".repeat(10_000)])], [0], budget);
    expect(ranges(w.log)).toEqual(["first", "values B3:B3", "last", "sync"]);
  });

  it("a cell's number format counts toward its range's bytes, as its JSON text", async () => {
    // A format of 200 characters costs 202 bytes: a row 4 + 60 + 202 = 266, so six rows fit a quarter (200 + 1,596).
    const long = "0".repeat(200);
    const w = await written(Array.from({ length: 10 }, (_, i) => row(i, [i], [long])), [0], budget);
    expect(ranges(w.log).filter((l) => l.startsWith("values"))).toEqual(["values B3:B8", "values B9:B12"]);
  });

  it("fills count toward a request: a run of fills costs an operation", async () => {
    // 20 rows with alternating fills: 200 + 20 × (69 + 100) = 3,580 bytes, over a quarter: cut after 10 rows (1,890).
    const w = await written(Array.from({ length: 20 }, (_, i) => row(i, [i], [null], [i % 2 ? "#F00" : null])), [0], budget);
    expect(ranges(w.log).filter((l) => l.startsWith("values"))).toEqual(["values B3:B13", "values B14:B22"]);
  });
});

describe("runs of rows", () => {
  it("groups sorted rows into runs of consecutive rows", () => {
    expect(rowRuns([])).toEqual([]);
    expect(rowRuns([0, 1, 2, 5, 7, 8])).toEqual([[0, 3], [5, 1], [7, 2]]);
  });
});

describe("reading rows back", () => {
  const grid = Array.from({ length: 40 }, (_, r) => Array.from({ length: 6 }, (_, c) => `${r}.${c}`));

  it("reads runs of consecutive rows as one range each, over the columns asked only, in the order asked", async () => {
    const r = recording(grid);
    // Body row 0 is sheet row 2 (index 2); column 0 of the table is sheet column B.
    const read = await readRowsOf(r.context, r.at, [5, 1, 2, 5], [3, -1, 1], 4_000_000);
    expect(r.log).toEqual(["read C4:E5 C8:E8"]);
    expect(read).toEqual([["7.4", "", "7.2"], ["3.4", "", "3.2"], ["4.4", "", "4.2"], ["7.4", "", "7.2"]]);
  });

  it("asks Excel nothing for no rows or no columns the table has", async () => {
    const r = recording(grid);
    expect(await readRowsOf(r.context, r.at, [0, 1], [-1], 4_000_000)).toEqual([[""], [""]]);
    expect(await readRowsOf(r.context, r.at, [], [0], 4_000_000)).toEqual([]);
    expect(r.log).toEqual([]);
  });

  it("reads 2,000 cells first, then as many as the response budget holds at 1.5 times the bytes a cell took", async () => {
    const r = recording(Array.from({ length: 5_010 }, (_, i) => ["", `${i}`.padStart(4, "0")]));
    const rows = Array.from({ length: 2_500 }, (_, i) => i * 2); // 2,500 runs of one row
    const read = await readRowsOf(r.context, r.at, rows, [0], 700);
    // Each cell "0000" costs 7 bytes: 700 / (7 × 1.5 + 1) = 60 cells a request after the first.
    expect(r.log.map((l) => l.split(" ").length - 1)).toEqual([2_000, 60, 60, 60, 60, 60, 60, 60, 60, 20]);
    expect(read.map((line) => line[0])).toEqual(rows.map((i) => `${i + 2}`.padStart(4, "0")));
  });

  it("counts a run's cells across every column read: the first 2,000 cells are 666 rows of three columns, not 667", async () => {
    const r = recording(Array.from({ length: 5_010 }, (_, i) => ["", `${i}`, `${i}`, `${i}`]));
    const rows = Array.from({ length: 2_500 }, (_, i) => i * 2);
    const read = await readRowsOf(r.context, r.at, rows, [0, 1, 2], 100_000_000);
    expect(r.log.map((l) => l.split(" ").length - 1)).toEqual([666, 1_834]);
    expect(read.at(-1)).toEqual(["5000", "5000", "5000"]);
  });

  it("a request refused for another reason fails the read at once, not asked again", async () => {
    const r = recording(grid);
    const sync = r.context.sync.bind(r.context);
    r.context.sync = async () => {
      await sync();
      throw Object.assign(new Error("The requested resource doesn't exist."), { code: "ItemNotFound" });
    };
    await expect(readRowsOf(r.context, r.at, [0, 1, 2, 3], [0], 4_000_000)).rejects.toThrow("The requested resource doesn't exist.");
    expect(r.log).toEqual(["read B3:B6"]);
  });

  it("a run longer than a request's worth is read in parts", async () => {
    const r = recording(Array.from({ length: 3_010 }, (_, i) => ["", `${i}`, `${i}`]));
    const read = await readRowsOf(r.context, r.at, Array.from({ length: 3_000 }, (_, i) => i), [1, 0], 100_000_000);
    expect(r.log).toEqual(["read B3:C1002", "read B1003:C3002"]);
    expect(read[2_999]).toEqual(["3001", "3001"]);
  });

  it("a run exactly a request's worth is read whole, in one range", async () => {
    const r = recording(Array.from({ length: 1_010 }, (_, i) => ["", `${i}`, `${i}`]));
    await readRowsOf(r.context, r.at, Array.from({ length: 1_000 }, (_, i) => i), [1, 0], 100_000_000);
    expect(r.log).toEqual(["read B3:C1002"]);
  });

  it("columns more than 2,000 apart are read a row at a time", async () => {
    const wide = recording(Array.from({ length: 4 }, (_, i) => ["", `${i}`]));
    expect(await readRowsOf(wide.context, wide.at, [1, 0], [0, 2_500], 4_000_000)).toEqual([["3", undefined], ["2", undefined]]);
    // Rows 3 and 4 of the sheet, each in a request of its own (the first 2,000 cells hold less than one row).
    expect(wide.log.map((l) => l.replace(/[^ ]*?(\d+):[^ ]*?(\d+)/g, "$1-$2"))).toEqual(["read 3-3", "read 4-4"]);
  });

  it("a request of several one-row runs refused is asked again run by run; halves round down", async () => {
    const r = recording(grid, 1);
    expect(await readRowsOf(r.context, r.at, [0, 2], [0], 4_000_000)).toEqual([["2.1"], ["4.1"]]);
    expect(r.log).toEqual(["read B3:B3 B5:B5 refused", "read B3:B3", "read B5:B5"]);
    const three = recording(grid, 1);
    await readRowsOf(three.context, three.at, [0, 1, 2], [0], 4_000_000);
    expect(three.log).toEqual(["read B3:B5 refused", "read B3:B3", "read B4:B5 refused", "read B4:B4", "read B5:B5"]);
  });

  it("a request refused as too large is asked again in halves; a lone cell refused fails the read", async () => {
    const r = recording(grid, 3);
    const read = await readRowsOf(r.context, r.at, [0, 1, 2, 3, 4, 5, 6, 7], [0], 4_000_000);
    expect(r.log).toEqual([
      "read B3:B10 refused", "read B3:B6 refused", "read B3:B4",
      "read B5:B6 B7:B10 refused", "read B5:B6", "read B7:B10 refused", "read B7:B8", "read B9:B10",
    ]);
    expect(read).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`${i + 2}.1`]));
    const one = recording(grid, 0);
    await expect(readRowsOf(one.context, one.at, [0, 1], [0], 4_000_000)).rejects.toThrow("too large");
    expect(one.log).toEqual(["read B3:B4 refused", "read B3:B3 refused"]);
  });
});
