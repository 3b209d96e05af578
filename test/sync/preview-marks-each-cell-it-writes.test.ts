/**
 * Preview's marks cell by cell (pure, and markPreview on a stand-in workbook that records its writes): the status
 * of a row with no message or no plan of its own, a change naming several fields, the cells of a row without an
 * id, the service's cells when the person moved one to the table's first column, a typed-value note when no
 * service column is known, what the redaction may touch (statuses only: a value the person typed is written back
 * as typed), and no write at all when nothing is to be marked.
 */
import type { CellWrite, TrackedValues, Workbook } from "../../src/sheets";
import { EDITABLE_FILL } from "../../src/sheets";
import { EDITED_FILL } from "../../src/sheets";
import { PREVIEW_FILLS, markPreview, previewMarks, previewStatus, type PlannedRow, type SheetRow, type SyncTable } from "../../src/sync";

const blank: TrackedValues = { state: "approved", accounted_id: "", paid_id: "", paid_at: "" };
const columns = { id: 1, state: 5, accounted_id: 6, paid_id: 7, paid_at: 8, status: 9 };
const sheetRow = (row: number, desired: Partial<TrackedValues>, status = "", id = `id-${row}`): SheetRow => {
  const d = { ...blank, ...desired };
  return { row, id, desired: d, raw: { ...d }, status };
};
const TYPED_AMOUNT = "Not sent: Amount is the service's (typed here: Amount 5); Sync states sends only State, Accounted ID, Paid ID and Paid at. Refresh asks before it replaces a typed value.";

describe("the status Preview writes", () => {
  it("an invalid row without a message of its own says it cannot be synced; without being told the row is gone, it is not called gone", () => {
    expect(previewStatus({ id: "x", rows: [0], kind: "invalid", loaded: blank, desired: blank })).toBe("Invalid: this row cannot be synced.");
    expect(previewStatus({ id: "x", rows: [0], kind: "invalid", loaded: blank, desired: blank, message: "Bad." })).toBe("Invalid: Bad.");
  });

  it("a change of several fields names each, separated by commas, in the order they are sent", () => {
    const patch = { state: "paid" as const, accounted_id: "ACC-1", paid_id: "PAY-1", paid_at: "2026-11-20T10:00:00Z" };
    expect(previewStatus({ id: "x", rows: [0], kind: "change", loaded: blank, desired: blank, patch }))
      .toBe("Will send: approved → paid (Accounted ID: ACC-1, Paid ID: PAY-1, Paid at: 2026-11-20T10:00:00Z)");
  });

  it("a change of the state alone names no field", () => {
    expect(previewStatus({ id: "x", rows: [0], kind: "change", loaded: blank, desired: blank, patch: { state: "accounted" } })).toBe("Will send: approved → accounted");
  });
});

describe("the cells Preview marks", () => {
  it("a row with an earlier typed note and a value typed now: the typed cell keeps its mark, the other service cells lose theirs, a column gone from the table is not touched", () => {
    const where = { header: ["ID", "Amount", "Description", "x", "y", "State", "Accounted ID", "Paid ID", "Paid at", "Sync status"], service: ["Amount", "Description", "Provider"] };
    const typed = [{ row: 4, id: "id-4", header: "Amount", typed: 5 }];
    expect(previewMarks({ columns, rows: [sheetRow(4, {}, TYPED_AMOUNT)] }, [], typed, where)).toEqual([
      { row: 4, column: 9, value: TYPED_AMOUNT, fill: PREVIEW_FILLS.typed },
      { row: 4, column: 1, fill: EDITED_FILL },
      { row: 4, column: 2, fill: null },
      ...[5, 6, 7, 8].map((column) => ({ row: 4, column, fill: EDITABLE_FILL })),
    ]);
  });

  it("a row without an id (nothing loaded to compare with): only the cells holding something are highlighted", () => {
    const rows = [sheetRow(2, { state: "paid", paid_id: "PAY-9", accounted_id: "" }, "", "")];
    const planned: PlannedRow[] = [{ id: "", rows: [2], kind: "invalid", loaded: null, desired: rows[0].desired, message: "This row has no Record ID." }];
    expect(previewMarks({ columns, rows }, planned)).toEqual([
      { row: 2, column: 9, value: "Invalid: This row has no Record ID.", fill: PREVIEW_FILLS.invalid },
      { row: 2, column: 5, fill: EDITED_FILL },
      { row: 2, column: 7, fill: EDITED_FILL },
    ]);
  });

  it("a value typed over a service column the person moved to the table's first column is marked there, and unmarked there once put back", () => {
    const where = { header: ["Amount", "ID", "Description", "x", "y", "State", "Accounted ID", "Paid ID", "Paid at", "Sync status"], service: ["Amount", "Description"] };
    const typed = [{ row: 4, id: "id-4", header: "Amount", typed: 5 }];
    expect(previewMarks({ columns, rows: [sheetRow(4, {})] }, [], typed, where)).toEqual([
      { row: 4, column: 9, value: TYPED_AMOUNT, fill: PREVIEW_FILLS.typed },
      { row: 4, column: 0, fill: EDITED_FILL },
    ]);
    const putBack = previewMarks({ columns, rows: [sheetRow(4, {}, TYPED_AMOUNT)] }, [], [], where);
    expect(putBack).toEqual([
      { row: 4, column: 9, value: "", fill: null },
      { row: 4, column: 0, fill: null },
      { row: 4, column: 2, fill: null },
      ...[5, 6, 7, 8].map((column) => ({ row: 4, column, fill: EDITABLE_FILL })),
    ]);
  });

  it("a typed value whose column is not in the table any more: its note is written, no cell is marked", () => {
    const where = { header: ["ID", "Description", "State"], service: ["Description"] };
    const typed = [{ row: 4, id: "id-4", header: "Amount", typed: 5 }];
    expect(previewMarks({ columns, rows: [sheetRow(4, {})] }, [], typed, where)).toEqual([
      { row: 4, column: 9, value: TYPED_AMOUNT, fill: PREVIEW_FILLS.typed },
    ]);
  });

  it("an earlier typed-value note, previewed again with no service column known: the status is cleared, no service cell touched", () => {
    expect(previewMarks({ columns, rows: [sheetRow(4, {}, TYPED_AMOUNT)] }, [])).toEqual([
      { row: 4, column: 9, value: "", fill: null },
      ...[5, 6, 7, 8].map((column) => ({ row: 4, column, fill: EDITABLE_FILL })),
    ]);
  });
});

describe("markPreview on a stand-in workbook", () => {
  const KEY = "sk_live_0123456789abcdef";
  const redact = (text: string) => text.replaceAll(KEY, "[redacted]");

  function stand() {
    const writes: { table: string; cells: CellWrite[] }[] = [];
    const workbook = { writeCells: async (table: string, cells: CellWrite[]) => void writes.push({ table, cells }) } as Pick<Workbook, "writeCells">;
    return { writes, workbook: workbook as Workbook };
  }

  it("only the status passes the redaction: the cells the person typed are written back exactly as typed", async () => {
    const { writes, workbook } = stand();
    const rows = [sheetRow(0, { state: "paid", paid_id: `${KEY}-1` })];
    const planned: PlannedRow[] = [{ id: "id-0", rows: [0], kind: "invalid", loaded: blank, desired: rows[0].desired, message: `Paid ID "${KEY}-1" looks like a key.` }];
    await markPreview(workbook, { tableName: "T", columns, rows } as SyncTable, { rows: planned, deleted: [], gone: 0 }, redact);
    expect(writes).toEqual([{
      table: "T",
      cells: [
        { row: 0, column: 9, value: 'Invalid: Paid ID "[redacted]-1" looks like a key.', fill: PREVIEW_FILLS.invalid },
        { row: 0, column: 5, fill: EDITED_FILL },
        { row: 0, column: 7, fill: EDITED_FILL },
      ],
    }]);
  });

  it("nothing to mark (no edit, no earlier mark): the workbook is not written to at all", async () => {
    const { writes, workbook } = stand();
    const rows = [sheetRow(0, {}), sheetRow(1, {}, "Applied 2026-11-21 10:00 UTC: approved → paid")];
    await markPreview(workbook, { tableName: "T", columns, rows } as SyncTable, { rows: [{ id: "id-0", rows: [0], kind: "unchanged", loaded: blank, desired: blank }], deleted: [], gone: 0 }, redact);
    expect(writes).toEqual([]);
  });
});
