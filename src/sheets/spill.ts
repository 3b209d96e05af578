/**
 * The tables' columns as 2-D arrays, for the custom functions: the same headers, order and value types
 * (dates as Excel serials, numbers as numbers, text as text), without the Sync status column, which only
 * means something in a loaded table.
 */
import { getAllowance, getCard, getExpense, redactSecrets, type ListOptions, type SendOptions, type SpendClient } from "../api";
import { toCell, type Column, type ColumnKind } from "./columns";
import type { CellValue } from "./excel-values";
import { allowanceColumns } from "./layouts/allowances";
import { cardColumns } from "./layouts/cards";
import { expenseColumns } from "./layouts/expenses";
import { STATUS_KEY } from "./layouts/tracking";
import { sourceOf, withCurrencyExpand, type LoadParams } from "./load-params";

const withoutStatus = <T>(columns: Column<T>[]) => columns.filter((c) => c.key !== STATUS_KEY);

/** A spilled list or record: each column's header and kind, and the rows as plain cell values. */
export interface Spill {
  columns: { key: string; header: string; kind: ColumnKind; currencyKey?: string; currency?: string }[];
  rows: CellValue[][];
}

function render<T>(columns: Column<T>[], records: T[]): Spill {
  return {
    columns: columns.map((c) => ({ key: c.key, header: c.header, kind: c.kind, currencyKey: c.currencyKey, currency: c.currency })),
    // A spilled result lands in the workbook too: no echo of the key in it.
    rows: records.map((r) => columns.map((c) => {
      const cell = toCell(c.kind, c.value(r));
      return typeof cell === "string" ? redactSecrets(cell) : cell;
    })),
  };
}

/** The plain grid Excel shows without data types: a header row, then the rows. */
export const gridOf = (spill: Spill): CellValue[][] => [spill.columns.map((c) => c.header), ...spill.rows];

/** A whole list with a header row. */
export async function spillList(client: SpendClient, params: LoadParams, options: ListOptions = {}): Promise<Spill> {
  const source = sourceOf(params);
  const records = await source.list(client, options).all();
  return render(withoutStatus(source.columns), records as never[]);
}

export type RecordKind = "card" | "allowance" | "expense";

export interface RecordRef {
  kind: RecordKind;
  id: string;
  /** For allowances and expenses. */
  subsidiaryId?: string;
}

/** Column keys and headers of one record's row (for messages about the `field` argument). */
export function recordColumns(kind: RecordKind): { key: string; header: string }[] {
  const none = new Set<string>();
  const columns = kind === "card" ? cardColumns(none) : kind === "allowance" ? allowanceColumns(none) : expenseColumns(none);
  return withoutStatus(columns as Column<unknown>[]).map((c) => ({ key: c.key, header: c.header }));
}

/** One record: its columns and its one row. */
export async function spillRecord(client: SpendClient, ref: RecordRef, options: SendOptions = {}): Promise<Spill> {
  const none = new Set<string>();
  switch (ref.kind) {
    case "card":
      return render(withoutStatus(cardColumns(none)), [await getCard(client, ref.id, {}, options)]);
    case "allowance":
      // With its segments, which name the converted amount's currency (layouts/allowances.ts).
      return render(withoutStatus(allowanceColumns(none)), [await getAllowance(client, ref.subsidiaryId!, ref.id, { expand: withCurrencyExpand([]) }, options)]);
    case "expense":
      return render(withoutStatus(expenseColumns(none)), [await getExpense(client, ref.subsidiaryId!, ref.id, {}, options)]);
  }
}
