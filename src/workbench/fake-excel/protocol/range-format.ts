/**
 * A range's formatting on the in-memory Excel: column widths (set, or fitted to the text shown), fills and
 * bold fonts. https://learn.microsoft.com/javascript/api/excel/excel.rangeformat
 */
import { FakeExcelError } from "../errors";
import { HostObject, type Members } from "./host-object";
import type { RangeCells } from "./range-cells";

export class RangeFormatObject extends HostObject {
  readonly className = "RangeFormat";
  constructor(private readonly range: RangeCells) {
    super();
  }

  protected members(): Members {
    const { sheet, area } = this.range;
    return {
      scalars: {
        ColumnWidth: {
          get: () => sheet.columnWidths.get(area.column) ?? DEFAULT_COLUMN_WIDTH,
          set: (width) => {
            if (typeof width !== "number" || !Number.isFinite(width) || width < 0) throw new FakeExcelError("InvalidArgument", `A column width is a number of points, not ${String(width)}.`);
            for (let c = area.column; c < area.column + area.columnCount; c++) sheet.columnWidths.set(c, width);
          },
        },
      },
      navigation: { Fill: () => new RangeFillObject(this.range), Font: () => new RangeFontObject(this.range) },
      methods: {
        /**
         * "Changes the width of the columns of the current range to achieve the best fit, based on the current data
         * in the columns" (d.ts, RangeFormat.autofitColumns): the widest cell's text as shown (its number format
         * applied) decides, over the whole of each column, not only the range's rows: "autofitColumns() appears to
         * auto-fit based on all cells in the column(s) intersecting the range, even when a small range (e.g., a
         * single cell) is specified" (office-js #5999, #1017). Text is measured as characters (see autofitWidth).
         */
        AutofitColumns: () => {
          const widest = new Array<number>(area.columnCount).fill(0);
          for (const line of sheet.cells.values()) {
            for (let c = 0; c < area.columnCount; c++) widest[c] = Math.max(widest[c], shownLength(line.get(area.column + c)));
          }
          widest.forEach((characters, c) => sheet.columnWidths.set(area.column + c, autofitWidth(characters)));
          return null;
        },
      },
    };
  }
}

/**
 * How many characters a cell shows: a date or time format shows as many as its code has (yyyy-mm-dd hh:mm:ss),
 * a "#,##0.00" number its digits with separators and decimals; anything else its text.
 */
function shownLength(cell: { value: unknown; numberFormat: string } | undefined): number {
  if (!cell) return 0;
  const { value, numberFormat } = cell;
  if (typeof value === "number" && /^[ymdhs:\- ]+$/.test(numberFormat)) return numberFormat.length;
  if (typeof value === "number" && /^#,##0(\.0+)?$/.test(numberFormat)) {
    const decimals = numberFormat.split(".")[1]?.length ?? 0;
    return groupedFormat(decimals).format(value).length;
  }
  return String(value ?? "").length;
}

/**
 * What toLocaleString("en-US", …) does, with its formatter made once per number of decimals: toLocaleString
 * builds a new Intl.NumberFormat at every call, and an autofit measures every cell of its columns.
 */
const grouped = new Map<number, Intl.NumberFormat>();
function groupedFormat(decimals: number): Intl.NumberFormat {
  let format = grouped.get(decimals);
  if (!format) grouped.set(decimals, (format = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return format;
}

/** Excel's default column width in points (8.43 characters of Calibri 11). */
const DEFAULT_COLUMN_WIDTH = 48;
/** Points for a text of `characters` characters, as the in-memory Excel estimates Calibri 11 (about 7 points a character). */
export const autofitWidth = (characters: number) => Math.max(DEFAULT_COLUMN_WIDTH / 4, Math.round(characters * 7 + 10));

export class RangeFillObject extends HostObject {
  readonly className = "RangeFill";
  constructor(private readonly range: RangeCells) {
    super();
  }

  protected members(): Members {
    const first = () => this.range.sheet.cell(this.range.area.row, this.range.area.column);
    return {
      scalars: {
        Color: {
          get: () => first()?.fill ?? "#FFFFFF",
          /** "Empty strings ('') clear or reset property values"; null "isn't valid for single properties like range.format.fill.color" (blank-null article). */
          set: (color) => {
            if (typeof color !== "string") throw new FakeExcelError("InvalidArgument", `A fill color is a "#RRGGBB" or a color name, not ${String(color)}.`);
            this.range.eachCell((cell) => (cell.fill = color === "" ? undefined : color));
          },
        },
      },
      methods: { Clear: () => (this.range.eachCell((cell) => (cell.fill = undefined)), null) },
    };
  }
}

export class RangeFontObject extends HostObject {
  readonly className = "RangeFont";
  constructor(private readonly range: RangeCells) {
    super();
  }

  protected members(): Members {
    return {
      scalars: {
        Bold: {
          get: () => this.range.sheet.cell(this.range.area.row, this.range.area.column)?.bold === true,
          set: (bold) => {
            if (typeof bold !== "boolean") throw new FakeExcelError("InvalidArgument", `Bold is true or false, not ${String(bold)}.`);
            this.range.eachCell((cell) => (cell.bold = bold || undefined));
          },
        },
      },
    };
  }
}
