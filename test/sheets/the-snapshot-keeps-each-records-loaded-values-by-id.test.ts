/**
 * The snapshot keeps, per record id, what was last loaded (tracked values, why it is read-only, fingerprints of
 * its other cells) on a very hidden sheet of its own: read back by id with each record's row; written whole by
 * a load, patched row by row by a refresh (new records below), and its tracked values or fingerprints updated
 * in place by Sync states.
 */
import { readFingerprints, readSnapshot, readSnapshotRows, snapshotRow, snapshotSheetOf, snapshotStart, snapshotTableOf, writeSnapshot, patchSnapshot, updateFingerprints, updateSnapshotRows, type CellValue, type TrackedValues } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { readSnapshotCells } from "../../src/sheets/edits/snapshot";
import { cellHash, digestOf } from "../../src/sheets/edits/row-hashes";
import { nameTag } from "../../src/sheets/load/params";
import { FakeExcel } from "../../src/workbench/fake-excel";

const HEADER = ["Record ID", "state", "accounted_id", "paid_id", "paid_at", "read_only", "digest", "cells"];
const v = (state: string, accounted = "", paid = "", at = ""): TrackedValues => ({ state, accounted_id: accounted, paid_id: paid, paid_at: at });

function fresh() {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  /** The snapshot table's rows as they are in the workbook. */
  const rows = () => {
    const t = excel.model.table("Snap_T")!;
    return Array.from({ length: t.area.rowCount - 1 }, (_, r) => HEADER.map((_, c) => t.sheet.cell(t.area.row + 1 + r, t.area.column + c)?.value ?? ""));
  };
  return { excel, workbook, rows };
}

async function loaded() {
  const f = fresh();
  await writeSnapshot(f.workbook, "T", [
    { id: "a", values: v("approved", "acc-1"), cells: "AAABBB" },
    { id: "b", values: v("paid", "", "pay-2", "2026-01-02T03:04:05Z"), readOnly: "amount: not a number", cells: "CCCDDD" },
    { id: "c", cells: "EEEFFF" },
  ]);
  return f;
}

describe("where the snapshot is", () => {
  it("is table Snap_<table> on sheet \"Snap <table>\", or, past 31 characters, the name's start and a tag of the whole", () => {
    expect(snapshotTableOf("T")).toBe("Snap_T");
    expect(snapshotSheetOf("T")).toBe("Snap T");
    const fits = "x".repeat(26);
    expect(snapshotSheetOf(fits)).toBe(`Snap ${fits}`);
    const long = "SpendExpenses_1a2b3c4d_approved_from";
    expect(snapshotSheetOf(long)).toBe(`Snap SpendExpenses_1a2b ${nameTag(long, 7)}`);
    expect(snapshotSheetOf(long)).toHaveLength(31);
    expect(snapshotSheetOf(`${fits}a`)).not.toBe(snapshotSheetOf(`${fits}b`));
  });

  it("starts as a very hidden table of text columns of its own sheet, holding its rows until finish", () => {
    expect(snapshotStart("T")).toEqual({
      sheetName: "Snap T", tableName: "Snap_T", header: HEADER, numberFormats: HEADER.map(() => "@"), editable: HEADER.map(() => false),
      dropdowns: HEADER.map(() => null), visibility: "VeryHidden", ownSheet: true, holdPartial: "untilFinish",
    });
  });

  it("keeps a record as its id, tracked values, read-only note, digest and fingerprints; none for a table not synced", () => {
    expect(snapshotRow("a", v("paid", "acc", "pay", "2026"), "why", "AAABBB")).toEqual(["a", "paid", "acc", "pay", "2026", "why", digestOf("AAABBB"), "AAABBB"]);
    expect(snapshotRow("b", undefined)).toEqual(["b", "", "", "", "", "", digestOf(""), ""]);
  });
});

describe("reading the snapshot", () => {
  it("gives each record's values, row and read-only note; digests only when asked", async () => {
    const { excel, workbook, rows } = await loaded();
    expect(excel.model.sheet("Snap T")!.visibility).toBe("VeryHidden");
    expect(rows()).toEqual([
      snapshotRow("a", v("approved", "acc-1"), "", "AAABBB"),
      snapshotRow("b", v("paid", "", "pay-2", "2026-01-02T03:04:05Z"), "amount: not a number", "CCCDDD"),
      snapshotRow("c", undefined, "", "EEEFFF"),
    ]);
    const read = await readSnapshotRows(workbook, "T");
    expect(read).toEqual({
      snapshot: new Map([["a", v("approved", "acc-1")], ["b", v("paid", "", "pay-2", "2026-01-02T03:04:05Z")], ["c", v("")]]),
      rowOf: new Map([["a", 0], ["b", 1], ["c", 2]]),
      readOnly: new Map([["b", "amount: not a number"]]),
      digests: null,
      rowCount: 3,
    });
    expect((await readSnapshotRows(workbook, "T", { digests: true })).digests).toEqual(new Map([["a", digestOf("AAABBB")], ["b", digestOf("CCCDDD")], ["c", digestOf("EEEFFF")]]));
    expect(await readSnapshot(workbook, "T")).toEqual(read.snapshot);
  });

  it("skips rows without an id, which still count as rows", async () => {
    const { workbook } = fresh();
    await workbook.writeTable({ ...snapshotStart("T"), rows: [["", "x", "", "", "", "", "", ""], [" ", "y", "", "", "", "", "", ""], ["z", "s", "", "", "", "", "", ""]] });
    const read = await readSnapshotRows(workbook, "T");
    expect(read.rowCount).toBe(3);
    expect(read.rowOf).toEqual(new Map([[" ", 1], ["z", 2]]));
    expect(await readFingerprints(workbook, "T")).toEqual(new Map([[" ", ""], ["z", ""]]));
  });

  it("reads a snapshot written before its read_only column as no record read-only, and before fingerprints as none", async () => {
    const { workbook } = fresh();
    await workbook.writeTable({ ...snapshotStart("T"), header: HEADER.slice(0, 5), numberFormats: HEADER.slice(0, 5).map(() => "@"), rows: [["a", "paid", "acc", "", ""]] });
    const read = await readSnapshotRows(workbook, "T", { digests: true });
    expect(read.snapshot).toEqual(new Map([["a", v("paid", "acc")]]));
    expect(read.readOnly).toEqual(new Map());
    expect(await readFingerprints(workbook, "T")).toEqual(new Map([["a", ""]]));
  });

  it("has no digests for a snapshot written before them (no cells column), and nothing for a table with no snapshot", async () => {
    const { workbook } = fresh();
    await workbook.writeTable({ ...snapshotStart("T"), header: HEADER.slice(0, 6), numberFormats: HEADER.slice(0, 6).map(() => "@"), rows: [["a", "paid", "", "", "", ""]] });
    const read = await readSnapshotRows(workbook, "T", { digests: true });
    expect(read.digests).toBeNull();
    expect(read.snapshot).toEqual(new Map([["a", v("paid")]]));
    await workbook.writeTable({ ...snapshotStart("T"), header: HEADER.slice(0, 7), numberFormats: HEADER.slice(0, 7).map(() => "@"), rows: [["a", "paid", "", "", "", "", "D"]] });
    expect((await readSnapshotRows(workbook, "T", { digests: true })).digests).toBeNull();
    expect(await readSnapshotRows(workbook, "Other", { digests: true })).toEqual({ snapshot: new Map(), rowOf: new Map(), readOnly: new Map(), digests: null, rowCount: 0 });
  });

  it("gives every record's fingerprints, and some rows' in the order asked", async () => {
    const { workbook } = await loaded();
    expect(await readFingerprints(workbook, "T")).toEqual(new Map([["a", "AAABBB"], ["b", "CCCDDD"], ["c", "EEEFFF"]]));
    expect(await readFingerprints(workbook, "Other")).toEqual(new Map());
    expect(await readSnapshotCells(workbook, "T", [2, 0])).toEqual(["EEEFFF", "AAABBB"]);
    expect(await readSnapshotCells(workbook, "Other", [2, 0])).toEqual(["", ""]);
  });
});

describe("changing the snapshot", () => {
  it("a refresh writes the changed records' rows again and adds new ones below, leaving the others", async () => {
    const { workbook, rows } = await loaded();
    const read = await readSnapshotRows(workbook, "T");
    await patchSnapshot(workbook, "T", read, [
      { id: "new", values: v("approved"), cells: "GGGHHH" },
      { id: "b", values: v("paid", "acc-9", "pay-2"), cells: "CCCXXX" },
      { id: "new2", cells: "III" },
    ]);
    expect(rows()).toEqual([
      snapshotRow("a", v("approved", "acc-1"), "", "AAABBB"),
      snapshotRow("b", v("paid", "acc-9", "pay-2"), "", "CCCXXX"),
      snapshotRow("c", undefined, "", "EEEFFF"),
      snapshotRow("new", v("approved"), "", "GGGHHH"),
      snapshotRow("new2", undefined, "", "III"),
    ]);
  });

  it("the first record of a new table's snapshot takes its one empty row; no record writes nothing", async () => {
    const { workbook, rows } = fresh();
    await writeSnapshot(workbook, "T", []);
    const read = await readSnapshotRows(workbook, "T");
    expect(read.rowCount).toBe(1);
    await patchSnapshot(workbook, "T", read, []);
    expect(rows()).toEqual([HEADER.map(() => "")]);
    await patchSnapshot(workbook, "T", read, [{ id: "a", cells: "AAA" }, { id: "b", cells: "BBB" }]);
    expect(rows()).toEqual([snapshotRow("a", undefined, "", "AAA"), snapshotRow("b", undefined, "", "BBB")]);
  });

  it("new records go below every row there is: a one-record snapshot's row is kept, rows without an id too", async () => {
    const one = fresh();
    await writeSnapshot(one.workbook, "T", [{ id: "a", cells: "AAA" }]);
    await patchSnapshot(one.workbook, "T", await readSnapshotRows(one.workbook, "T"), [{ id: "b", cells: "BBB" }]);
    expect(one.rows()).toEqual([snapshotRow("a", undefined, "", "AAA"), snapshotRow("b", undefined, "", "BBB")]);
    const blank = fresh();
    await blank.workbook.writeTable({ ...snapshotStart("T"), rows: [HEADER.map(() => ""), HEADER.map(() => "")] });
    await patchSnapshot(blank.workbook, "T", await readSnapshotRows(blank.workbook, "T"), [{ id: "b", cells: "BBB" }]);
    expect(blank.rows()).toEqual([HEADER.map(() => ""), HEADER.map(() => ""), snapshotRow("b", undefined, "", "BBB")]);
  });

  it("Sync states' own writes to a record's cells move its fingerprints and digest; other layouts' and unknown records' stay", async () => {
    const { workbook, rows } = await loaded();
    const read = await readSnapshotRows(workbook, "T");
    const cells = new Map<string, Map<number, CellValue>>([
      ["a", new Map<number, CellValue>([[1, "2026-05-01"]])],
      ["b", new Map<number, CellValue>([[0, 5], [2, "too far"]])], // place 2 is past b's two fingerprints
      ["zz", new Map<number, CellValue>([[0, "x"]])],
    ]);
    await updateFingerprints(workbook, "T", read, cells);
    const a = `AAA${cellHash("2026-05-01")}`;
    expect(rows()).toEqual([
      snapshotRow("a", v("approved", "acc-1"), "", a),
      snapshotRow("b", v("paid", "", "pay-2", "2026-01-02T03:04:05Z"), "amount: not a number", "CCCDDD"),
      snapshotRow("c", undefined, "", "EEEFFF"),
    ]);
    await updateFingerprints(workbook, "T", read, new Map([["c", new Map<number, CellValue>([[0, 7]])]]));
    expect(rows()[2]).toEqual(snapshotRow("c", undefined, "", `${cellHash(7)}FFF`));
    await updateFingerprints(workbook, "T", read, new Map([["zz", new Map<number, CellValue>([[0, 7]])]]));
    expect(rows()[0]).toEqual(snapshotRow("a", v("approved", "acc-1"), "", a));
  });

  it("Sync states writes the records' new tracked values in their rows, and refuses a record with no row", async () => {
    const { workbook, rows } = await loaded();
    const read = await readSnapshotRows(workbook, "T");
    await updateSnapshotRows(workbook, "T", read, new Map([["c", v("paid", "acc-3", "pay-3", "2026-02-02")]]));
    expect(rows()).toEqual([
      snapshotRow("a", v("approved", "acc-1"), "", "AAABBB"),
      snapshotRow("b", v("paid", "", "pay-2", "2026-01-02T03:04:05Z"), "amount: not a number", "CCCDDD"),
      snapshotRow("c", v("paid", "acc-3", "pay-3", "2026-02-02"), "", "EEEFFF"),
    ]);
    expect(read.snapshot.get("c")).toEqual(v("paid", "acc-3", "pay-3", "2026-02-02"));
    await expect(updateSnapshotRows(workbook, "T", read, new Map([["zz", v("paid")]]))).rejects.toThrow("Record zz has no row in the snapshot of T; refresh the table.");
  });
});

describe("what the snapshot asks of Excel: only what it needs, and no request for nothing", () => {
  /** The workbook's calls, each as its name, table and what it names (headers, rows or cell places). */
  function recorded(workbook: ExcelWorkbook): string[] {
    const calls: string[] = [];
    const readColumns = workbook.readColumns.bind(workbook);
    workbook.readColumns = (table, headers) => (calls.push(`readColumns ${table} ${headers.join(",")}`), readColumns(table, headers));
    const readRows = workbook.readRows.bind(workbook);
    workbook.readRows = (table, rows, headers) => (calls.push(`readRows ${table} ${rows.join(",")} ${headers.join(",")}`), readRows(table, rows, headers));
    const updateTable = workbook.updateTable.bind(workbook);
    workbook.updateTable = (table, update) => (calls.push(`updateTable ${table} ${update.rows.map((r) => r.row).join(",")}`), updateTable(table, update));
    const writeCells = workbook.writeCells.bind(workbook);
    workbook.writeCells = (table, cells) => (calls.push(`writeCells ${table} ${cells.map((c) => `${c.row}:${c.column}`).join(",")}`), writeCells(table, cells));
    return calls;
  }

  it("reads its id, tracked and read-only columns; the digests only when asked; the fingerprints never", async () => {
    const { workbook } = await loaded();
    const calls = recorded(workbook);
    expect((await readSnapshotRows(workbook, "T")).digests).toBeNull();
    expect((await readSnapshotRows(workbook, "T", { digests: true })).digests).toEqual(new Map([["a", digestOf("AAABBB")], ["b", digestOf("CCCDDD")], ["c", digestOf("EEEFFF")]]));
    expect(calls).toEqual([
      "readColumns Snap_T Record ID,state,accounted_id,paid_id,paid_at,read_only",
      "readColumns Snap_T Record ID,state,accounted_id,paid_id,paid_at,read_only,digest",
    ]);
  });

  it("patching no record, following no fingerprint and writing no tracked value send nothing to Excel", async () => {
    const { workbook } = await loaded();
    const read = await readSnapshotRows(workbook, "T");
    const calls = recorded(workbook);
    await patchSnapshot(workbook, "T", read, []);
    await updateFingerprints(workbook, "T", read, new Map());
    await updateFingerprints(workbook, "T", read, new Map([["zz", new Map<number, CellValue>([[0, 7]])]])); // no row
    await updateSnapshotRows(workbook, "T", read, new Map());
    expect(calls).toEqual([]);
  });

  it("fingerprints of another layout (shorter than the place written) are read, and nothing is written", async () => {
    const { workbook } = await loaded();
    const read = await readSnapshotRows(workbook, "T");
    const calls = recorded(workbook);
    await updateFingerprints(workbook, "T", read, new Map([["b", new Map<number, CellValue>([[2, "too far"]])]]));
    expect(calls).toEqual(["readRows Snap_T 1 cells"]);
    await updateFingerprints(workbook, "T", read, new Map([["b", new Map<number, CellValue>([[1, 5]])], ["a", new Map<number, CellValue>([[0, "x"]])]]));
    expect(calls.slice(1)).toEqual(["readRows Snap_T 1,0 cells", "writeCells Snap_T 1:6,1:7,0:6,0:7"]);
  });
});
