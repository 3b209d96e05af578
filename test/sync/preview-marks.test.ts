/**
 * The preview in the sheet: statuses that say what will happen and highlighted edited cells, written for
 * the edited rows only, then taken away by a sync, a discard, a refresh, or by undoing the edit.
 */
import { updateExpense } from "../../src/api";
import { EDITABLE_FILL, discardEdits, refreshTable, type CellWrite, type TrackedValues, type Workbook } from "../../src/sheets";
import { EDITED_FILL } from "../../src/sheets";
import { GONE_NOT_SENT, PREVIEW_FILLS, markPreview, previewInSheet, previewMarks, previewStatus, runSync, type PlannedRow, type SheetRow, type SyncTable } from "../../src/sync";
import { OUTCOME_FILLS } from "../../src/sync/write-outcomes";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, fillOf, loadFor } from "../support/sync";

const blank: TrackedValues = { state: "approved", accounted_id: "", paid_id: "", paid_at: "" };
const columns = { id: 0, state: 5, accounted_id: 6, paid_id: 7, paid_at: 8, status: 9 };
const sheetRow = (row: number, desired: Partial<TrackedValues>, status = ""): SheetRow => {
  const d = { ...blank, ...desired };
  return { row, id: `id-${row}`, desired: d, raw: { ...d }, status };
};

describe("previewMarks (pure)", () => {
  it("writes the status and fill of each edited row and highlights only its edited cells", () => {
    const rows = [sheetRow(0, { state: "paid", paid_id: "P-1" }), sheetRow(1, {}), sheetRow(2, { state: "payed" })];
    const planned: PlannedRow[] = [
      { id: "id-0", rows: [0], kind: "change", loaded: blank, desired: rows[0].desired, patch: { state: "paid", paid_id: "P-1" } },
      { id: "id-2", rows: [2], kind: "invalid", loaded: blank, desired: rows[2].desired, message: '"payed" is not a state of an expense; choose accounted or paid.' },
    ];
    const cells = previewMarks({ columns, rows }, planned);
    expect(cells).toEqual([
      { row: 0, column: 9, value: "Will send: approved → paid (Paid ID: P-1)", fill: PREVIEW_FILLS.send },
      { row: 0, column: 5, fill: EDITED_FILL },
      { row: 0, column: 7, fill: EDITED_FILL },
      { row: 2, column: 9, value: 'Invalid: "payed" is not a state of an expense; choose accounted or paid.', fill: PREVIEW_FILLS.invalid },
      { row: 2, column: 5, fill: EDITED_FILL },
    ]);
  });

  it("a row an earlier preview marked and no longer edited is put back: status cleared, editable fill on its tracked cells", () => {
    const rows = [sheetRow(3, {}, "Will send: approved → paid"), sheetRow(4, {}, "Applied 2026-11-21 10:00 UTC: approved → paid")];
    const cells = previewMarks({ columns, rows }, []);
    expect(cells).toEqual([
      { row: 3, column: 9, value: "", fill: null },
      ...[5, 6, 7, 8].map((column) => ({ row: 3, column, fill: EDITABLE_FILL })),
    ]);
  });

  it("statuses pass the redaction given (a value typed into a row never carries the key into the sheet)", async () => {
    const rows = [sheetRow(0, { state: "accounted", paid_id: "sk_live_secret" })];
    const planned: PlannedRow[] = [{ id: "id-0", rows: [0], kind: "invalid", loaded: blank, desired: rows[0].desired, message: 'Paid ID "sk_live_secret" …' }];
    const written: CellWrite[] = [];
    const workbook = { writeCells: async (_: string, cells: CellWrite[]) => void written.push(...cells) } as Pick<Workbook, "writeCells">;
    await markPreview(workbook as Workbook, { tableName: "T", columns, rows } as SyncTable, { rows: planned, deleted: [], gone: 0 }, (t) => t.replaceAll("sk_live_secret", "[redacted]"));
    expect(written.find((c) => c.column === columns.status)?.value).toBe('Invalid: Paid ID "[redacted]" …');
  });

  it("the status of a change names the fields sent", () => {
    expect(previewStatus({ id: "x", rows: [0], kind: "change", loaded: blank, desired: blank, patch: { state: "accounted", accounted_id: "ACC-1" } }))
      .toBe("Will send: approved → accounted (Accounted ID: ACC-1)");
  });
});

describe("the preview in the sheet, against the sandbox", () => {
  let f: ExcelFixture;
  beforeEach(async () => {
    f = await withExcel();
  });
  afterEach(() => f?.sandbox.close());
  const approved = () => f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");

  it("marks the edited rows; a sync replaces the marks with outcomes; a discard takes the highlight away, a refresh keeps it on an edit still unsynced", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b, c, d] = approved();
    edit(f, table, a.id, { State: "paid", "Paid ID": "PAY-1" });
    edit(f, table, b.id, { State: "payed" });
    edit(f, table, c.id, { "Accounted ID": "ACC-3" });
    edit(f, table, d.id, { State: "accounted" });

    const preview = await previewInSheet(f.workbook, table);
    expect(preview.counts).toMatchObject({ change: 2, invalid: 2 });
    expect(cellOf(f, table, a.id, "Sync status")).toBe("Will send: approved → paid (Paid ID: PAY-1)");
    expect(cellOf(f, table, b.id, "Sync status")).toBe('Invalid: "payed" is not a state of an expense; choose accounted or paid.');
    expect(cellOf(f, table, c.id, "Sync status")).toMatch(/^Invalid: Accounted ID changed but State did not/);
    expect(fillOf(f, table, a.id, "Sync status")).toBe(PREVIEW_FILLS.send);
    expect(fillOf(f, table, b.id, "Sync status")).toBe(PREVIEW_FILLS.invalid);
    expect([fillOf(f, table, a.id, "State"), fillOf(f, table, a.id, "Paid ID"), fillOf(f, table, a.id, "Accounted ID")]).toEqual([EDITED_FILL, EDITED_FILL, EDITABLE_FILL]);
    // Only edited rows are touched: the others keep an empty status and the editable fill.
    const t = tableView(f.excel, table);
    const untouched = t.values("Expense ID").findIndex((id) => ![a.id, b.id, c.id, d.id].includes(String(id)));
    expect(t.values("Sync status")[untouched]).toBe("");
    expect(t.fill("State", untouched)).toBe(EDITABLE_FILL);
    expect(f.sandbox.store.transitionsOf(a.id)).toHaveLength(0);

    // Undo d by hand, then preview again: d's mark goes; the rest stay.
    edit(f, table, d.id, { State: "approved" });
    const again = await previewInSheet(f.workbook, table);
    expect(again.counts).toMatchObject({ change: 1, invalid: 2 });
    expect(cellOf(f, table, d.id, "Sync status")).toBe("");
    expect(fillOf(f, table, d.id, "State")).toBe(EDITABLE_FILL);

    // The statuses written by the preview do not change what the sync sends.
    const report = await runSync(f.client, f.workbook, again, { now: () => new Date("2026-11-21T10:00:00Z") });
    expect(report.counts).toMatchObject({ applied: 1, invalid: 2 });
    expect(cellOf(f, table, a.id, "Sync status")).toBe("Applied 2026-11-21 10:00 UTC: approved → paid");
    expect(fillOf(f, table, a.id, "Sync status")).toBe(OUTCOME_FILLS.applied);
    expect([fillOf(f, table, a.id, "State"), fillOf(f, table, a.id, "Paid ID")]).toEqual([EDITABLE_FILL, EDITABLE_FILL]);
    // Not synced: still highlighted, with the outcome's status.
    expect(fillOf(f, table, b.id, "State")).toBe(EDITED_FILL);
    expect(fillOf(f, table, b.id, "Sync status")).toBe(OUTCOME_FILLS.invalid);

    await discardEdits(f.workbook, table, [b.id]);
    expect(cellOf(f, table, b.id, "State")).toBe("approved");
    expect(fillOf(f, table, b.id, "State")).toBe(EDITABLE_FILL);

    // Refresh keeps an edit still unsynced, and its mark (issue 24: a kept edit must not look like the server's value).
    await refreshTable(f.client, f.workbook, table);
    expect(fillOf(f, table, c.id, "Accounted ID")).toBe(EDITED_FILL);
    expect(cellOf(f, table, c.id, "Accounted ID")).toBe("ACC-3");
  });

  it("an edited row the query no longer returns stays unsent, however many times it is previewed", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a] = approved();
    await updateExpense(f.client, f.sub, a.id, { state: "accounted", accounted_id: "ACC-ELSEWHERE" });
    await refreshTable(f.client, f.workbook, table);
    edit(f, table, a.id, { State: "paid" });
    for (let i = 0; i < 2; i++) {
      const preview = await previewInSheet(f.workbook, table);
      expect(preview.counts.change).toBe(0);
      expect(preview.rows.find((r) => r.id === a.id)?.kind).toBe("invalid");
      expect(cellOf(f, table, a.id, "Sync status")).toBe(GONE_NOT_SENT);
    }
    // Undone: the row goes back to saying it is gone, with no promise about an edit.
    edit(f, table, a.id, { State: "approved" });
    await previewInSheet(f.workbook, table);
    expect(cellOf(f, table, a.id, "Sync status")).toBe("Not returned by the service any more for this table's query.");
    expect(f.sandbox.store.transitionsOf(a.id)).toHaveLength(1);
  });
});
