/** The Workbook port: what the add-in needs of Excel, nothing more. */
import type { EditMarks } from "./edit-marks";

/** What one Excel cell holds as the port sees it: text, a number (dates as serials) or a boolean. */
export type CellValue = string | number | boolean;

export interface TableWrite {
  sheetName: string;
  tableName: string;
  header: string[];
  /** Every body row, in order; each as long as the header. */
  rows: CellValue[][];
  /** One Excel number format per column; null leaves the cells' formats as they are (the user's own columns). */
  numberFormats: (string | null)[];
  /**
   * The user's own formulas, by body row and column (null: the cell holds the value of `rows`), written back
   * as formulas. Nothing else is ever written as a formula: a text starting with "=" stays text.
   */
  formulas?: (string | null)[][];
  /** Columns the user edits: marked with a fill. */
  editable: boolean[];
  /** In-cell dropdown values per column, or null. */
  dropdowns: (readonly string[] | null)[];
  widths?: (number | undefined)[];
  /** "VeryHidden" for the add-in's own data (snapshots): not even listed under Unhide. */
  visibility?: "Visible" | "VeryHidden";
  /** Rows written so far, of the total. */
  onProgress?: (written: number, total: number) => void;
  /** A row's own number formats, where they depend on its cells (an amount's decimals on its currency). */
  formatsOf?: (row: CellValue[]) => readonly (string | null)[];
}

/** A table to be written page by page: everything of a TableWrite but its rows. */
export type TableStart = Omit<TableWrite, "rows" | "formulas" | "onProgress"> & {
  /**
   * The sheet is the table's own (a load's snapshot): a sheet of that name, or a table of that name, left from
   * before is replaced rather than refused. Otherwise a sheet of that name that already exists is used only when it
   * holds no values (its formats stay); one holding values is refused with their address, and nothing is written.
   */
  ownSheet?: boolean;
  /**
   * Whether appended rows that would only fill part of a request (its byte budget) wait for more rows, so
   * that fewer, fuller requests go: "untilFinish" for a table nobody watches fill up (a load's snapshot);
   * "whileExcelBusy" for one a person watches: they wait only while Excel is at work on this table's last
   * request, and go as soon as it is back (after a refused request nothing more goes: the next append and
   * `finish` throw the refusal). Unset: every append is sent whole.
   */
  holdPartial?: "untilFinish" | "whileExcelBusy";
};

/**
 * A new table written as its rows arrive (a first load): the table exists from `createTable` on and grows
 * with every `append`. Until `finish`, `discard` takes back everything written, so a cancelled or failed
 * load leaves no partial table.
 */
export interface TableStream {
  /**
   * Adds rows below those written so far, in byte-budgeted requests, and grows the table over them. Resolves
   * once the last request is sent, while Excel may still be at work on it, so that the next rows are made
   * ready meanwhile: they are sent when it is back. A refusal of any earlier request is thrown by the next
   * append (even one whose rows would only be held) and by `finish`.
   */
  append(rows: CellValue[][]): Promise<void>;
  /** Waits for every request sent; then the editable columns' fills and dropdowns over the whole body, and recalculation. */
  finish(): Promise<void>;
  /** Deletes what was written: the table, and its sheet when createTable added it. Never throws. */
  discard(): Promise<void>;
}

/** Rows to add at the end of a table (created with `header` when absent). */
export type AppendWrite = Omit<TableWrite, "editable" | "dropdowns" | "onProgress" | "formulas">;

export interface TableRead {
  sheetName: string;
  header: string[];
  /** Body rows in sheet order (what the user sees, sorted or not). */
  rows: CellValue[][];
  /** The same cells as formulas where they hold one (so the user's own formulas survive a refresh). */
  formulas: CellValue[][];
}

/** Some columns of a table's body, read without the rest (Preview and Sync read only what they need). */
export interface ColumnsRead {
  sheetName: string;
  /** The table's whole header, in order. */
  header: string[];
  /** Body rows (a Total Row is not part of the body). */
  rowCount: number;
  /** Each requested header found in the table -> its body cells in sheet order; absent headers are left out. */
  columns: Map<string, CellValue[]>;
}

export interface CellWrite {
  /** 0-based index into the table body. */
  row: number;
  column: number;
  /** Absent: the cell keeps what it holds (a value or formula someone typed) and only takes the fill. */
  value?: CellValue;
  /** A fill color for the cell, or null to clear it. */
  fill?: string | null;
}

/** Cells of one body row to write, in the order of TableUpdate.header; undefined leaves a cell as it is. */
export interface RowPatch {
  /** 0-based index into the table body; at or past its end, a row added below it. */
  row: number;
  values: readonly (CellValue | undefined)[];
  /** The row's number formats, in the same order (null leaves a cell's format alone). */
  formats: readonly (string | null)[];
  /** Fills in the same order: a colour, null to clear, undefined to leave; a fill may go on a cell whose value is left. */
  fills?: readonly (string | null | undefined)[];
}

/**
 * Some cells of some rows of a table (Refresh, of the records that changed), and rows added below it. Only
 * the columns of `header` are written, wherever the table has them now: the user's own columns never.
 */
export interface TableUpdate {
  header: readonly string[];
  /** Rows to write; added rows (row >= the body's rows) follow the body with no gap, in order. */
  rows: readonly RowPatch[];
  /** Of the added rows, by `header`: the columns the user edits (marked with a fill) and their dropdowns. */
  editable: readonly boolean[];
  dropdowns: readonly (readonly string[] | null)[];
  /** Rows written so far, of the total. */
  onProgress?: (written: number, total: number) => void;
}

/** Where the person is looking: the sheet on screen, its tables, and the tables under the selection. */
export interface LookedAt {
  sheetName: string;
  /** The tables on the sheet on screen, by name. */
  sheetTables: string[];
  /** The tables the selection overlaps, top-left first; null when Excel names no single selected range (several areas). */
  selectedTables: string[] | null;
}

export interface Workbook {
  readTable(tableName: string): Promise<TableRead | null>;
  /** Reads only the named columns of a table's body (values, not formulas), in byte-budgeted requests. */
  readColumns(tableName: string, headers: readonly string[]): Promise<ColumnsRead | null>;
  /** The values of some body rows (0-based) in the named columns ("" where the table has no such column), in the order asked. */
  readRows(tableName: string, rows: readonly number[], headers: readonly string[]): Promise<CellValue[][] | null>;
  /**
   * Of some body rows (0-based), the cells of the named columns: by header, then row, the cell's A1 address
   * ("H12"), whether a formula gives its value, whether that value is an Excel error (#N/A) rather than a text
   * reading so, and its number format (a number typed as a date is a date serial). Absent where the host cannot say
   * (then no formula is named, and an error's text counts as one).
   */
  describeCells?(tableName: string, headers: readonly string[], rows: readonly number[]): Promise<Map<string, Map<number, { address: string; formula: boolean; error: boolean; format?: string }>> | null>;
  /**
   * Writes the cells of an update and adds its new rows below the table (refused, before anything is written,
   * when cells below it hold data or a column of `header` is gone), then recalculates.
   */
  updateTable(tableName: string, update: TableUpdate): Promise<void>;
  /** Creates the table (and its sheet) or replaces its header and body; the table keeps its name. */
  writeTable(write: TableWrite): Promise<void>;
  /** Creates a table that does not exist yet (and its sheet if needed), to be filled with `append`. */
  createTable(start: TableStart): Promise<TableStream>;
  /**
   * Writes cells of a table's body (sync outcomes, values the server returned): one operation per run of
   * adjacent rows in a column, not per cell; text stays exactly that text.
   */
  writeCells(tableName: string, cells: CellWrite[]): Promise<void>;
  /** Appends rows to a table, creating it with `header` if needed (the journal). */
  appendRows(write: AppendWrite): Promise<void>;
  readSetting(key: string): Promise<string | null>;
  writeSetting(key: string, value: string): Promise<void>;
  /**
   * Selects a body cell of a table (links to rows with problems; a load's first State cell), Excel scrolling it
   * into view. `column` is an index in the table, or a header (the first column where the table has no such one).
   */
  select(tableName: string, row: number, column: number | string): Promise<void>;
  /** The rows changed since a full read, from Excel's change events (edit-marks.ts); absent where the host cannot tell. */
  readonly editMarks?: EditMarks;
  /** Where the person is looking (the ribbon's commands act there); absent where the host cannot say. */
  lookedAt?(): Promise<LookedAt>;
  /**
   * Tells `listener` when Excel has left a request unanswered for a while (true: perhaps the person is editing
   * a cell, which Excel waits for) and when it answers again (false). Returns how to stop listening.
   */
  onExcelWait?(listener: (waiting: boolean) => void): () => void;
}
