/**
 * Importing a bank file into a loaded allowances table (the real sandbox, the in-memory Excel through Office.js):
 * the unique matches' Paid ID, Paid at and State are written as edits (orange) with their source line in Sync
 * status, nothing else changes (a record holding another Paid ID keeps it), nothing is sent until Preview and
 * Confirm, and Preview names each value's source line.
 */
import { DEFAULT_WINDOW, EDITED_FILL, importLines, loadTable, serialToTimestamp } from "../../src/sheets";
import { previewInSheet, runSync } from "../../src/sync";
import { generateBankFile } from "../../src/sandbox/import-files";
import { readBytes } from "../domain/import/helpers";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
afterEach(async () => f?.sandbox.close());

async function loadedAllowances() {
  f = await withExcel();
  const params = { resource: "allowances" as const, enterpriseId: f.enterprise.id, subsidiaryId: f.sub, expand: ["beneficiary" as const] };
  const { tableName } = await loadTable(f.client, f.workbook, params);
  const file = generateBankFile(f.sandbox.store.data, { seed: 5, resource: "allowance", subsidiaryId: f.sub, window: DEFAULT_WINDOW });
  return { tableName, file };
}

describe("importing a bank file into the allowances table", () => {
  it("fills exactly the unique matches as edits naming their line, keeps every other cell, and sends nothing", async () => {
    const { tableName, file } = await loadedAllowances();
    const before = tableView(f.excel, tableName);
    const transitions = f.sandbox.store.data.transitions.length;
    const { report, filledRows } = await importLines(f.workbook, tableName, await readBytes(file.bytes, "bank"), { kind: "bank", fileName: "bank file" });
    const after = tableView(f.excel, tableName);
    const ids = after.values("Allowance ID").map(String);
    const expected = new Map<string, { line: number; value: string }>();
    for (const t of file.truth) if (t.expect === "fill") for (const id of t.ids) expected.set(id, { line: t.line, value: file.rows[t.line - 2][5] });
    expect(filledRows).toBe(expected.size);
    expect(expected.size).toBeGreaterThan(40);
    for (const [row, id] of ids.entries()) {
      const want = expected.get(id);
      if (!want) {
        expect(after.rows[row]).toEqual(before.rows[row]); // not a cell of an unmatched record changed
        continue;
      }
      expect(after.values("State")[row]).toBe("paid");
      expect(after.values("Paid ID")[row]).toBe(want.value);
      expect(serialToTimestamp(Number(after.values("Paid at (UTC)")[row]))).toMatch(/^2026-\d\d-\d\dT00:00:00Z$/);
      expect([after.fill("State", row), after.fill("Paid ID", row), after.fill("Paid at (UTC)", row)]).toEqual([EDITED_FILL, EDITED_FILL, EDITED_FILL]);
      expect(after.values("Sync status")[row]).toBe(`Imported from bank file line ${want.line}.`);
    }
    // A record that holds another Paid ID is a conflict: listed, not overwritten.
    const other = file.truth.find((t) => t.case === "holds another value");
    if (other) expect(report.outcomes.find((o) => o.line === other.line)?.kind).toBe("conflict");
    expect(report.counts.ambiguous).toBeGreaterThan(0);
    expect(f.sandbox.store.data.transitions.length).toBe(transitions);
  });

  it("Preview names each value's source line and sends nothing; Confirm sends the filled values", async () => {
    const { tableName, file } = await loadedAllowances();
    const transitions = f.sandbox.store.data.transitions.length;
    const { filledRows, report } = await importLines(f.workbook, tableName, await readBytes(file.bytes, "bank"), { kind: "bank", fileName: "bank file" });
    const preview = await previewInSheet(f.workbook, tableName);
    expect(preview.counts.change + preview.counts.check).toBe(filledRows);
    const fill = report.fills[0];
    const row = preview.rows.find((r) => r.id === fill.id)!;
    expect(row.source).toBe(fill.source);
    const status = String(tableView(f.excel, tableName).values("Sync status")[row.rows[0]]);
    expect(status).toMatch(new RegExp(`^Will send: (approved|accounted) → paid \\(Paid ID: ${fill.values.paid_id}, Paid at: .*\\) Imported from ${fill.source}\\.$`));
    expect(f.sandbox.store.data.transitions.length).toBe(transitions);
    const result = await runSync(f.client, f.workbook, preview, { sendChecked: true });
    expect(result.results.filter((r) => r.outcome === "applied")).toHaveLength(filledRows);
    const server = f.sandbox.store.data.allowances.find((a) => a.id === fill.id)!;
    expect([server.state, server.paid_id]).toEqual(["paid", fill.values.paid_id]);
    expect(f.sandbox.store.data.transitions.length).toBe(transitions + filledRows);
  });
});
