/**
 * Issue 46: one Preview reads each column of the table and of its snapshot once (preview-reads.ts), and finds
 * exactly what reading each column per ask found: the same rows, questions, typed values and marks.
 */
import fc from "fast-check";
import type { CellWrite, Workbook } from "../../src/sheets";
import { previewInSheet, previewSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { previewReadingEachAsk } from "../support/preview-baseline";
import { edit, loadFor } from "../support/sync";

let f: ExcelFixture;
beforeEach(async () => {
  f = await withExcel();
});
afterEach(() => f?.sandbox.close());

/** The workbook, with every column read, setting read and cell write it is asked for written down. */
function watched(workbook: Workbook) {
  const columnReads: string[] = [];
  const settingReads: string[] = [];
  const writes: CellWrite[] = [];
  const watching = new Proxy(workbook, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property === "readColumns") columnReads.push(...(args[1] as string[]).map((h) => `${String(args[0])} › ${h}`));
        if (property === "readSetting") settingReads.push(String(args[0]));
        if (property === "writeCells") writes.push(...(args[1] as CellWrite[]));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { watching, columnReads, settingReads, writes };
}

const repeated = (list: string[]) => list.filter((x, i) => list.indexOf(x) !== i);

describe("Preview reads each column once", () => {
  it("reads each column of the table and of its snapshot once, each setting once, in fewer round trips, and finds what reading per ask finds", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    const [a, b, c] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
    edit(f, table, a.id, { State: "accounted", "Accounted ID": "ACC-A" });
    edit(f, table, b.id, { Amount: 999, "Paid ID": "PAY-B" });
    edit(f, table, c.id, { Description: "typed over" });

    f.excel.resetStats();
    const before = await previewReadingEachAsk(f.workbook, table);
    const roundTripsBefore = f.excel.stats.syncs;
    const { watching, columnReads, settingReads, writes } = watched(f.workbook);
    f.excel.resetStats();
    const preview = await previewInSheet(watching, table);
    const roundTrips = f.excel.stats.syncs - 1; // the marks' write, which the reference does not do

    expect(preview.counts).toMatchObject({ change: 1, invalid: 1, typed: 2 });
    expect(preview).toEqual(before.preview);
    expect(writes).toEqual(before.marks);
    expect(columnReads).toContain(`${table} › Expense ID`);
    expect(columnReads).toContain(`${table} › Amount`);
    expect(repeated(columnReads)).toEqual([]);
    expect(repeated(settingReads)).toEqual([]);
    expect(roundTrips).toBeLessThan(roundTripsBefore);
  });

  it("finds the same rows, questions, typed values and marks as reading each column per ask, whatever was typed where", async () => {
    const table = await loadFor(f, { resource: "expenses" });
    const rows = tableView(f.excel, table).rows.length;
    const header = ["Expense ID", "State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Amount", "Description", "Sync status"] as const;
    const value = fc.constantFrom<string | number>("", "accounted", "paid", "Paid", "ACC-1", " PAY-2 ", "2026-11-01T10:00:00Z", 46000.5, 12, "12", "Will send: x", "Not sent: y");
    // Edits add up run after run: earlier previews' marks are on the sheet when the next one runs.
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: rows - 1 }), fc.constantFrom(...header), value, fc.integer({ min: 0, max: rows - 1 })), { minLength: 1, maxLength: 8 }), async (edits) => {
        const t = tableView(f.excel, table);
        for (const [row, column, typed, other] of edits) {
          // An id is cleared, or copied from another row (a duplicate), never made up: either is what a person does.
          const cell = column === "Expense ID" ? (typed === "" ? "" : t.values("Expense ID")[other]) : typed;
          f.excel.user.paste(t.sheet.name, t.address(column, row), cell as string | number);
        }
        const before = await previewReadingEachAsk(f.workbook, table);
        const { watching, writes } = watched(f.workbook);
        const preview = await previewInSheet(watching, table);
        expect(preview).toEqual(before.preview);
        expect(writes).toEqual(before.marks);
        expect(await previewSync(f.workbook, table)).toEqual((await previewReadingEachAsk(f.workbook, table)).preview);
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
