/**
 * The part of the Excel JavaScript API the adapter uses, every member typed from `@types/office-js`.
 *
 * Why a subset and not `Excel.RequestContext` itself: the in-memory Excel of src/workbench implements
 * this subset, and the compiler proves that Office.js's real `Excel` satisfies it: src/shared-runtime.ts
 * passes `Excel` to `new ExcelWorkbook(Excel)` with no cast, so a property or method that Office.js lacks
 * (say `table.showFilters`) or types differently fails `npm run typecheck` there.
 * test/types/excel-boundary.ts shows that with `@ts-expect-error` fixtures.
 */

/** Excel.RangeFill: https://learn.microsoft.com/javascript/api/excel/excel.rangefill */
interface XRangeFill {
  color: Excel.RangeFill["color"];
  clear: () => void;
}

/** Excel.RangeFormat: https://learn.microsoft.com/javascript/api/excel/excel.rangeformat */
interface XRangeFormat {
  readonly fill: XRangeFill;
  readonly font: { bold: Excel.RangeFont["bold"] };
  columnWidth: Excel.RangeFormat["columnWidth"];
  /** ExcelApi 1.2: each column as wide as its widest cell in the range (columns.ts caps it). */
  autofitColumns: () => void;
  load: (propertyNames?: string | string[]) => XRangeFormat;
}

/** Excel.DataValidation (ExcelApi 1.8): https://learn.microsoft.com/javascript/api/excel/excel.datavalidation */
interface XDataValidation {
  rule: Excel.DataValidation["rule"];
  clear: () => void;
}

/** Excel.Range: https://learn.microsoft.com/javascript/api/excel/excel.range */
export interface XRange {
  load: (propertyNames?: string | string[]) => XRange;
  /** Raw values; a string starting with = + - is taken as a formula (see Range.values in the d.ts). */
  values: Excel.Range["values"];
  /** Typed values (ExcelApi 1.16): a `String` cell value is stored as exactly that text. */
  valuesAsJson: Excel.Range["valuesAsJson"];
  formulas: Excel.Range["formulas"];
  numberFormat: Excel.Range["numberFormat"];
  /** ExcelApi 1.1: Empty, String, Double, Boolean or Error, per cell. */
  readonly valueTypes: Excel.Range["valueTypes"];
  readonly rowCount: Excel.Range["rowCount"];
  readonly columnCount: Excel.Range["columnCount"];
  readonly rowIndex: Excel.Range["rowIndex"];
  readonly columnIndex: Excel.Range["columnIndex"];
  readonly format: XRangeFormat;
  readonly dataValidation: XDataValidation;
  clear: () => void;
  select: () => void;
  /** ExcelApi 1.4: the part of the range holding anything (with `valuesOnly`, values), or a null object. */
  getUsedRangeOrNullObject: (valuesOnly?: boolean) => XRange;
  readonly isNullObject: Excel.Range["isNullObject"];
  readonly address: Excel.Range["address"];
  /** ExcelApi 1.9: the range's formula cells as rectangles, or a null object when it holds none. */
  getSpecialCellsOrNullObject: (cellType: "Formulas") => XRangeAreas;
  /** ExcelApi 1.6: calculates these cells only, in this workbook only. */
  calculate: () => void;
  /** ExcelApi 1.9: the tables the range overlaps (with `fullyContained`, only those wholly inside it), top-left first. */
  getTables: (fullyContained?: boolean) => XTableScopedCollection;
  /** Releases an auto-tracked range once its writes are queued (Office.js's client; cell-writes.ts says why). */
  untrack: () => XRange;
}

/** Excel.RangeAreas (ExcelApi 1.9): https://learn.microsoft.com/javascript/api/excel/excel.rangeareas */
interface XRangeAreas {
  load: (propertyNames?: string | string[]) => XRangeAreas;
  readonly isNullObject: Excel.RangeAreas["isNullObject"];
  /** Its rectangles, each a range. */
  readonly areas: XRangeCollection;
}

/** Excel.RangeCollection (ExcelApi 1.9): https://learn.microsoft.com/javascript/api/excel/excel.rangecollection */
interface XRangeCollection {
  load: (propertyNames?: string | string[]) => XRangeCollection;
  /** The ranges (after a load of `items/...`). */
  readonly items: XRange[];
}

/** Excel.TableScopedCollection (ExcelApi 1.9): https://learn.microsoft.com/javascript/api/excel/excel.tablescopedcollection */
interface XTableScopedCollection {
  load: (propertyNames?: string | string[]) => XTableScopedCollection;
  /** Sorted top to bottom, then left to right (after a load of `items/...`). */
  readonly items: XTable[];
}

/** Excel.Table: https://learn.microsoft.com/javascript/api/excel/excel.table */
export interface XTable {
  load: (propertyNames?: string | string[]) => XTable;
  readonly isNullObject: Excel.Table["isNullObject"];
  name: Excel.Table["name"];
  showFilterButton: Excel.Table["showFilterButton"];
  showTotals: Excel.Table["showTotals"];
  style: Excel.Table["style"];
  readonly worksheet: XWorksheet;
  getHeaderRowRange: () => XRange;
  /** The body: without the header row and without a Total Row. */
  getDataBodyRange: () => XRange;
  /** ExcelApi 1.13. */
  resize: (newRange: string) => void;
  /** Takes back a table a cancelled load was writing. */
  delete: () => void;
  /** Unique in the workbook: the edit marks' proof that a table is the one they follow (edit-marks.ts). */
  readonly id: Excel.Table["id"];
  /** ExcelApi 1.7: data changes in the table's cells, a person's and the add-in's own (edit-marks.ts). */
  readonly onChanged: Pick<Excel.Table["onChanged"], "add">;
  /** ExcelApi 1.2: the self-test sorts its test table, as a person may, to see what Excel tells of it. */
  readonly sort: { apply: (fields: Excel.SortField[]) => void };
}

/** Excel.TableCollection of a worksheet: https://learn.microsoft.com/javascript/api/excel/excel.tablecollection */
interface XTableCollection {
  load: (propertyNames?: string | string[]) => XTableCollection;
  /** The sheet's tables (after a load of `items/...`). */
  readonly items: XTable[];
  add: (address: string, hasHeaders: boolean) => XTable;
}

/** Excel.Worksheet: https://learn.microsoft.com/javascript/api/excel/excel.worksheet */
export interface XWorksheet {
  load: (propertyNames?: string | string[]) => XWorksheet;
  readonly isNullObject: Excel.Worksheet["isNullObject"];
  readonly name: Excel.Worksheet["name"];
  visibility: Excel.Worksheet["visibility"];
  getRangeByIndexes: (startRow: number, startColumn: number, rowCount: number, columnCount: number) => XRange;
  /** ExcelApi 1.1: the used range, or the top left cell of a blank sheet (never a null object). */
  getUsedRange: (valuesOnly?: boolean) => XRange;
  /** ExcelApi 1.4; with `valuesOnly`, only cells holding a value count (a null object when there is none). */
  getUsedRangeOrNullObject: (valuesOnly?: boolean) => XRange;
  readonly tables: XTableCollection;
  readonly freezePanes: { freezeRows: (count?: number) => void };
  activate: () => void;
  delete: () => void;
  /** ExcelApi 1.10: a sort of rows on the sheet, which moves rows under the edit marks (edit-marks.ts). */
  readonly onRowSorted: Pick<Excel.Worksheet["onRowSorted"], "add">;
}

/** Excel.Setting: https://learn.microsoft.com/javascript/api/excel/excel.setting */
interface XSetting {
  load: (propertyNames?: string | string[]) => XSetting;
  readonly isNullObject: Excel.Setting["isNullObject"];
  readonly value: Excel.Setting["value"];
}

/** Excel.Application: https://learn.microsoft.com/javascript/api/excel/excel.application */
interface XApplication {
  suspendApiCalculationUntilNextSync: () => void;
  /** After suspended calculation, recalculating is the add-in's job (d.ts, suspendApiCalculationUntilNextSync). */
  calculate: (calculationType: "Recalculate" | "Full" | "FullRebuild") => void;
}

/** Excel.WorksheetCollection: https://learn.microsoft.com/javascript/api/excel/excel.worksheetcollection */
interface XWorksheetCollection {
  load: (propertyNames?: string | string[]) => XWorksheetCollection;
  /** Every sheet, in tab order, hidden and very hidden ones too (after a load of `items/...`). */
  readonly items: XWorksheet[];
  getItemOrNullObject: (key: string) => XWorksheet;
  add: (name?: string) => XWorksheet;
  /** The sheet on screen. */
  getActiveWorksheet: () => XWorksheet;
}

interface XWorkbook {
  readonly worksheets: XWorksheetCollection;
  /** The selected cells; fails when several ranges are selected ("If there are multiple ranges selected, this method will throw an error"). */
  getSelectedRange: () => XRange;
  readonly tables: {
    getItemOrNullObject: (key: string) => XTable;
    /** Fails the request with ItemNotFound where no table has that name (locateTable's one round trip). */
    getItem: (key: string) => XTable;
  };
  readonly settings: {
    add: (key: string, value: string) => XSetting;
    getItemOrNullObject: (key: string) => XSetting;
  };
}

/** Excel.RequestContext: https://learn.microsoft.com/javascript/api/excel/excel.requestcontext */
export interface XContext {
  readonly workbook: XWorkbook;
  readonly application: XApplication;
  sync: Excel.RequestContext["sync"];
}

/**
 * `Excel` in Office.js; `FakeExcel` in the workbench and the tests. Every member of these interfaces is
 * declared as a property, not a method, so that parameters are checked strictly (contravariantly): a
 * subset that widened a parameter (`calculate(type: string)`) would not accept Office.js's own.
 */
export interface ExcelHost {
  run: <T>(options: Excel.RunOptions, batch: (context: XContext) => Promise<T>) => Promise<T>;
}
