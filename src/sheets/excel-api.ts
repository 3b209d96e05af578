/**
 * The subset of the Excel JavaScript API the adapter uses, written as structural types: Office.js's
 * `Excel` satisfies them, and so does the in-memory fake of src/workbench. Nothing else of Excel is used.
 */

export type Scalar = string | number | boolean;

export interface XRange {
  load(properties: string): XRange;
  values: Scalar[][];
  readonly formulas: Scalar[][];
  readonly rowCount: number;
  readonly columnCount: number;
  readonly rowIndex: number;
  readonly columnIndex: number;
  readonly address: string;
  numberFormat: unknown;
  format: {
    fill: { color: string; clear(): void };
    font: { bold: boolean };
    columnWidth: number;
  };
  dataValidation: { rule: unknown; clear(): void };
  clear(): void;
  select(): void;
}

export interface XTable {
  load(properties: string): XTable;
  readonly isNullObject: boolean;
  name: string;
  showFilters: boolean;
  style: string;
  readonly worksheet: XWorksheet;
  getRange(): XRange;
  getHeaderRowRange(): XRange;
  getDataBodyRange(): XRange;
  resize(address: string): void;
}

export interface XWorksheet {
  load(properties: string): XWorksheet;
  readonly isNullObject: boolean;
  readonly name: string;
  visibility: string;
  getRangeByIndexes(row: number, column: number, rowCount: number, columnCount: number): XRange;
  tables: { add(address: string, hasHeaders: boolean): XTable };
  freezePanes: { freezeRows(count: number): void };
  activate(): void;
}

export interface XContext {
  workbook: {
    worksheets: { getItemOrNullObject(name: string): XWorksheet; add(name: string): XWorksheet };
    tables: { getItemOrNullObject(name: string): XTable };
    settings: {
      add(key: string, value: unknown): unknown;
      getItemOrNullObject(key: string): { load(properties: string): unknown; readonly isNullObject: boolean; readonly value: unknown };
    };
  };
  application: { suspendApiCalculationUntilNextSync(): void };
  sync(): Promise<void>;
}

/** `Excel` in Office.js; `FakeExcel` in the workbench and the tests. */
export interface ExcelHost {
  run<T>(batch: (context: XContext) => Promise<T>): Promise<T>;
}
