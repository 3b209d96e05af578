/**
 * Issue 46: Preview from edit marks. After a full read, Preview reads only the rows Excel's change events marked
 * (and rows holding formulas), and finds exactly what a full read finds: the same rows, questions, typed values and
 * marks, whatever a person did meanwhile: typed over service cells, cleared cells, ids cleared or copied from another
 * row, formulas, sorts and deleted rows (the last two make the marks incomplete: a full read again).
 */
import fc from "fast-check";
import type { CellWrite, Workbook } from "../../src/sheets";
import { ExcelWorkbook, type ExcelHost } from "../../src/sheets/excel";
import { previewInSheet, previewSync } from "../../src/sync";
import { DEFAULT_PROFILE, profileOf } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { previewReadingEachAsk } from "../support/preview-baseline";
import { loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => {
  useExcelProfile(DEFAULT_PROFILE);
  return f?.sandbox.close();
});

/** The workbook, with the table columns it is asked to read in full and the cells it writes written down. */
function watched(workbook: Workbook) {
  const columnReads: string[] = [];
  const writes: CellWrite[] = [];
  const watching = new Proxy(workbook, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property === "readColumns") columnReads.push(String(args[0]));
        if (property === "writeCells") writes.push(...(args[1] as CellWrite[]));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { watching, columnReads, writes };
}

/** Lets Microsoft's client hand the events to the handlers (a promise chain), as Excel's events arrive before the person's next click. */
const events = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Preview now, and whether it read the table in full; checked against a full read of the same workbook. */
async function previewAgainstFullRead(workbook: Workbook, table: string) {
  await events();
  const before = await previewReadingEachAsk(workbook, table);
  const { watching, columnReads, writes } = watched(workbook);
  const preview = await previewInSheet(watching, table);
  return { preview, before, writes, readInFull: columnReads.includes(table) };
}

describe("Preview from edit marks", () => {
  it("after a full read, reads only the marked rows, and finds what a full read finds, whatever a person did", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    const t0 = tableView(f.excel, table);
    const rows = t0.rows.length;
    f.excel.model.addSheet("Rates");
    f.excel.user.type("Rates", "A1", "ACC-R1");
    await previewSync(f.workbook, table); // the full read the marks follow
    const header = ["Expense ID", "State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Amount", "Description", "Sync status"] as const;
    const value = fc.constantFrom<string | number>("", "accounted", "paid", "Paid", "ACC-1", " PAY-2 ", "2026-11-01T10:00:00Z", 46000.5, 12, "12", "Will send: x", "=Rates!A1");
    const action = fc.oneof(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant("type" as const), row: fc.integer({ min: 0, max: rows - 3 }), column: fc.constantFrom(...header), value, other: fc.integer({ min: 0, max: rows - 3 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("clear" as const), row: fc.integer({ min: 0, max: rows - 3 }), column: fc.constantFrom(...header) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("sort" as const), column: fc.constantFrom("Amount", "Expense ID") }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), row: fc.integer({ min: 0, max: rows - 3 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("rate" as const), value: fc.constantFrom("ACC-R2", "", "PAY-9") }) },
    );
    let marked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 4 }), async (actions) => {
        let placed = true;
        for (const a of actions) {
          const t = tableView(f.excel, table);
          if (a.kind === "type") {
            // An id is cleared, or copied from another row (a duplicate), never made up: either is what a person does.
            const cell = a.column === "Expense ID" ? (a.value === "" ? "" : t.values("Expense ID")[a.other]) : a.value;
            if (typeof cell === "string" && cell.startsWith("=")) f.excel.user.type(t.sheet.name, t.address(a.column, a.row), cell);
            else f.excel.user.paste(t.sheet.name, t.address(a.column, a.row), cell as string | number);
          } else if (a.kind === "clear") f.excel.user.clear(t.sheet.name, t.address(a.column, a.row));
          else if (a.kind === "sort") {
            f.excel.user.sortTable(table, a.column);
            placed = false;
          } else if (a.kind === "delete") {
            f.excel.user.deleteRow(t.sheet.name, Number(t.address("State", a.row).replace(/^[A-Z]+/, "")));
            placed = false;
          } else f.excel.user.type("Rates", "A1", a.value); // a formula's input, outside the table: no change event there
        }
        const { preview, before, writes, readInFull } = await previewAgainstFullRead(f.workbook, table);
        expect(preview).toEqual(before.preview);
        expect(writes).toEqual(before.marks);
        // Where nothing moved the rows since the last Preview's full read, only marked rows were read.
        if (placed && !readInFull) marked++;
        expect(await previewSync(f.workbook, table)).toEqual((await previewReadingEachAsk(f.workbook, table)).preview);
      }),
      { numRuns: 20 },
    );
    expect(marked).toBeGreaterThan(3);
  }, 240_000);

  it("a Preview after edits, nothing moved: the table is not read in full, and the edits and typed values are found", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    await previewSync(f.workbook, table);
    const t = tableView(f.excel, table);
    f.excel.user.type(t.sheet.name, t.address("Description", 2), "typed over");
    f.excel.user.type(t.sheet.name, t.address("Paid ID", 4), "PAY-4");
    const { preview, before, readInFull } = await previewAgainstFullRead(f.workbook, table);
    expect(readInFull).toBe(false);
    expect(preview).toEqual(before.preview);
    expect(preview.typed.map((v) => [v.row, v.header, v.typed])).toEqual([[2, "Description", "typed over"]]);
  });

  it("an edit while the marks are incomplete (after a sort) is never missed: the next Preview reads in full", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    await previewSync(f.workbook, table);
    f.excel.user.sortTable(table, "Amount", false);
    const t = tableView(f.excel, table);
    f.excel.user.type(t.sheet.name, t.address("Description", 1), "after the sort");
    const { preview, before, readInFull } = await previewAgainstFullRead(f.workbook, table);
    expect(readInFull).toBe(true);
    expect(preview).toEqual(before.preview);
    expect(preview.typed.map((v) => v.typed)).toContain("after the sort");
  });

  it("a formula in a tracked cell is read again whenever Preview runs, though its value changes with no change event", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    f.excel.model.addSheet("Rates");
    f.excel.user.type("Rates", "A1", "ACC-1");
    const t = tableView(f.excel, table);
    f.excel.user.type(t.sheet.name, t.address("Accounted ID", 3), "=Rates!A1");
    await previewSync(f.workbook, table);
    f.excel.user.type("Rates", "A1", "ACC-2");
    const { preview, before, readInFull } = await previewAgainstFullRead(f.workbook, table);
    expect(readInFull).toBe(false);
    expect(preview).toEqual(before.preview);
    expect(JSON.stringify(preview.rows)).toContain("ACC-2");
  });

  it("a table deleted and loaded again under its name is read in full (another table id)", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    await previewSync(f.workbook, table);
    const model = f.excel.model.table(table)!;
    model.id = f.excel.model.newId("table"); // what Excel gives a table made anew, with the same name and cells
    const t = tableView(f.excel, table);
    f.excel.user.type(t.sheet.name, t.address("Description", 1), "typed in the new table");
    const { preview, before, readInFull } = await previewAgainstFullRead(f.workbook, table);
    expect(readInFull).toBe(true);
    expect(preview).toEqual(before.preview);
  });

  it("a new runtime has no marks (handlers end with it); an Excel before ExcelApi 1.10, or one that refuses the registration, always reads in full", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    await previewSync(f.workbook, table);
    const restarted = new ExcelWorkbook(f.excel as unknown as ExcelHost);
    expect((await previewAgainstFullRead(restarted, table)).readInFull).toBe(true);
    useExcelProfile({ ...profileOf(DEFAULT_PROFILE), sets: { ...profileOf(DEFAULT_PROFILE).sets, ExcelApi: "1.9" } });
    const old = new ExcelWorkbook(f.excel as unknown as ExcelHost);
    await previewSync(old, table);
    expect((await previewAgainstFullRead(old, table)).readInFull).toBe(true);
    useExcelProfile(DEFAULT_PROFILE);
    f.excel.host.events.sink = null;
    const deaf = new ExcelWorkbook(f.excel as unknown as ExcelHost);
    await previewSync(deaf, table);
    const again = await previewAgainstFullRead(deaf, table);
    expect(again.readInFull).toBe(true);
    expect(again.preview).toEqual(again.before.preview);
  });
});
