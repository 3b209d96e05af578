/**
 * What Load and Refresh share: their options and report, and the load's context. What the workbook keeps
 * about a loaded table is in stored-tables.ts.
 */
import type { SpendClient } from "../../api";
import type { AmountNotes } from "../money-formats";
import type { EditHeaders } from "../edits/edits";
import { STATUS_KEY } from "../resources/tracking";
import type { ParsedParams, Query } from "./params";
import type { Source } from "../resources";
import type { CellValue, Workbook } from "../port/workbook";

/** The start of the status Refresh writes on a record the same query no longer returns. */
export const REMOVED_NOTE_PREFIX = "Not returned by the service any more";
/** The start of the status Refresh writes on a row whose unsynced edit it kept (the server did not move). */
export const UNSYNCED_PREFIX = "Unsynced";
/** The start of the status Refresh writes where the user and the server both changed a record. */
export const REFRESH_CONFLICT_PREFIX = "Edited here and changed on the server";

export interface LoadProgress {
  phase: "fetch" | "write";
  done: number;
  total: number | null;
}

/** A cell of the service's columns whose value someone typed over (it is neither what was loaded nor what the service has now). */
export interface TypedCell {
  id: string;
  /** 0-based body row. */
  row: number;
  header: string;
  typed: CellValue;
  service: CellValue;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  /** Overwrite every unsynced edit of the tracked columns with the server's values. */
  discardEdits?: boolean;
  /**
   * Refresh found values typed over cells of the service's columns in records the service changed: whether
   * to keep them or write the service's over them. Without it they are kept (and reported).
   */
  onTyped?: (typed: readonly TypedCell[]) => Promise<"keep" | "replace">;
  /**
   * Refresh by rewriting the whole table (every row, the user's columns too), as Refresh did before it wrote
   * only what changed: the benchmark's baseline, and what Refresh does by itself where it must (refresh/whole.ts).
   */
  wholeTable?: boolean;
  now?: () => Date;
  /**
   * The table refreshed, by its name in the workbook: a table keeps the name it was loaded with, even where
   * today's naming of its query differs (every expand was "xbankxuser" before it was "names").
   */
  tableName?: string;
}

export interface LoadReport {
  tableName: string;
  sheetName: string;
  count: number;
  added: number;
  /** Records whose row Refresh wrote (the service changed them, or their status changed). */
  updated: number;
  removed: number;
  userColumns: string[];
  /** Unsynced edits kept on records the server did not change. */
  keptEdits: number;
  /** Records both edited here and changed on the server: the edit is kept, the row flagged. */
  conflicts: number;
  discardedEdits: number;
  /** Amounts shown with more decimals than their currency has, and currency codes not in ISO 4217 (money-formats.ts). */
  amounts: AmountNotes;
  /** Records that did not match the API: loaded as read-only rows, their status naming the wrong field. */
  malformed: number;
  /** Values typed over the service's cells of changed records: kept, or replaced by the service's (the user chose). */
  typed: { kept: TypedCell[]; replaced: number };
  /** How Refresh wrote: only what changed, or the whole table (and why). Absent for a first load. */
  refreshed?: { whole: false } | { whole: true; why: string };
}

/** One load or refresh, as its steps share it. */
export interface Load {
  client: SpendClient;
  workbook: Workbook;
  /** The query, parsed once where it entered (the form, a function, the table's stored settings). */
  query: Query;
  params: ParsedParams;
  options: LoadOptions;
  source: Source;
  layout: string[];
  tableName: string;
  sheetName: string;
  tracked: boolean;
  trackedHeaders: EditHeaders;
  statusHeader: string;
  /** Places in the layout of the service's cells the snapshot fingerprints: every column but the tracked ones and the status. */
  hashed: number[];
  now: Date;
  /** The loaded tables' names, read while the first page travels (keepParams adds this one). */
  loadedTables: string[];
}

/** The layout places Refresh fingerprints (row-hashes.ts): the service's cells, not the user's edits nor the status. */
export const hashedPlaces = (columns: readonly { key: string; editable?: boolean }[]): number[] =>
  columns.flatMap((c, i) => (c.editable || c.key === STATUS_KEY ? [] : [i]));

export const stampOf = (now: Date) => `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`;
