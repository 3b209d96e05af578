/**
 * Excel.TableScopedCollection on the in-memory Excel: the tables a range reaches (Range.getTables, ExcelApi 1.9).
 * https://learn.microsoft.com/javascript/api/excel/excel.tablescopedcollection
 */
import type { Area } from "../address";
import { FakeExcelError } from "../errors";
import type { SheetModel, TableModel } from "../model";
import { overlaps } from "./areas";
import { HostObject, type HostContext, type Members } from "./host-object";

/** `inner` lies wholly inside `outer`. */
const within = (inner: Area, outer: Area) => inner.row >= outer.row && inner.column >= outer.column
  && inner.row + inner.rowCount <= outer.row + outer.rowCount && inner.column + inner.columnCount <= outer.column + outer.columnCount;

export class TableScopedCollectionObject extends HostObject {
  readonly className = "TableScopedCollection";
  override readonly itemClass = "Table";

  /** With `fullyContained`, only tables wholly inside the range; otherwise every table that overlaps it (d.ts, Range.getTables). */
  constructor(private readonly host: HostContext, private readonly sheet: SheetModel, private readonly area: Area, private readonly fullyContained: boolean) {
    super();
  }

  /** "Sorted top-to-bottom and left-to-right, such that top-left table is the first" (d.ts, TableScopedCollection.getFirst). */
  private tables(): TableModel[] {
    return this.host.model.tables
      .filter((t) => t.sheet === this.sheet && (this.fullyContained ? within(t.area, this.area) : overlaps(t.area, this.area)))
      .sort((a, b) => a.area.row - b.area.row || a.area.column - b.area.column);
  }

  override items(): HostObject[] {
    return this.tables().map((t) => this.host.table(t));
  }

  override item(key: unknown): HostObject {
    const text = String(key).toLowerCase();
    const found = this.tables().find((t) => t.id === String(key) || t.name.toLowerCase() === text);
    if (!found) throw new FakeExcelError("ItemNotFound", `The table '${String(key)}' is not in this range.`);
    return this.host.table(found);
  }

  protected members(): Members {
    return {
      scalars: {},
      methods: {
        GetItem: (key) => this.item(key),
        /** Strict reading: a collection with no table has no first one (ItemNotFound, as getItem of a missing name). */
        GetFirst: () => {
          const first = this.tables()[0];
          if (!first) throw new FakeExcelError("ItemNotFound", "No table overlaps this range.");
          return this.host.table(first);
        },
      },
    };
  }
}
