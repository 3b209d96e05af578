/**
 * `Table.sort` on the in-memory Excel (ExcelApi 1.2): `apply` sorts the table's body rows top to bottom by its
 * fields, each a column's offset from the table's first column, and raises what a person's sort raises (a
 * `RowSorted` change: the sheet's onRowSorted, no Table.onChanged; change-events.ts).
 * https://learn.microsoft.com/javascript/api/excel/excel.tablesort
 */
import { FakeExcelError } from "../errors";
import type { Cell, TableModel, WorkbookModel } from "../model";
import { HostObject, type Members } from "./host-object";
import { cellOrder } from "../typing";

export class TableSortObject extends HostObject {
  readonly className = "TableSort";
  constructor(private readonly model: WorkbookModel, private readonly live: () => TableModel) {
    super();
  }

  protected members(): Members {
    return { scalars: {}, methods: { Apply: (fields) => (this.apply(fields), null) } };
  }

  private apply(input: unknown): void {
    const t = this.live();
    const { sheet, area } = t;
    const fields = Array.isArray(input) ? (input as { key?: unknown; ascending?: unknown }[]) : [];
    // SortField.key: "represented as an offset from the first column" (d.ts); one outside the table is refused.
    if (fields.length === 0 || fields.some((f) => typeof f?.key !== "number" || !Number.isInteger(f.key) || f.key < 0 || f.key >= area.columnCount)) {
      throw new FakeExcelError("InvalidArgument", "The argument is invalid or missing or has an incorrect format.");
    }
    const rows = Array.from({ length: area.rowCount - 1 - (t.showTotals ? 1 : 0) }, (_, i) => area.row + 1 + i);
    // Only the table's cells move: a cell beside the table stays in its row.
    const lines = rows.map((r) => Array.from({ length: area.columnCount }, (_, c) => sheet.cell(r, area.column + c)));
    const compare = (x: (Cell | undefined)[], y: (Cell | undefined)[]) => {
      for (const f of fields) {
        const order = cellOrder(x[f.key as number]?.value ?? "", y[f.key as number]?.value ?? "");
        if (order !== 0) return f.ascending === false ? -order : order;
      }
      return 0;
    };
    lines.sort(compare);
    rows.forEach((r, i) => lines[i].forEach((cell, c) => {
      const line = sheet.line(r);
      if (cell) line.set(area.column + c, cell);
      else line.delete(area.column + c);
    }));
    this.model.noteChange({ sheet, area: { ...area, row: area.row + 1, rowCount: rows.length }, changeType: "RowSorted" });
  }
}
