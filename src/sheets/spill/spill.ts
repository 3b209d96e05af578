/**
 * The tables' columns as 2-D arrays, for the custom functions: the same headers, order and value types
 * (dates as Excel serials, numbers as numbers, text as text), without the Sync status column, which only
 * means something in a loaded table.
 */
import { redactSecrets, type ListOptions, type SendOptions, type SpendClient } from "../../api";
import { toCell, type Column, type ColumnKind } from "../columns";
import { fitCell } from "../port/cells";
import type { CellValue } from "../port/workbook";
import { STATUS_KEY } from "../resources/tracking";
import { Query, type LoadParams } from "../load/params";
import { recordSpecOf, type RecordKind, type RecordRef, type RecordScope } from "../resources";

export type { RecordKind, RecordRef, RecordScope } from "../resources";

const withoutStatus = <T>(columns: Column<T>[]) => columns.filter((c) => c.key !== STATUS_KEY);

/** A spilled list or record: each column's header and kind, and the rows as plain cell values. */
export interface Spill {
  columns: { key: string; header: string; kind: ColumnKind; currencyKey?: string; currency?: string }[];
  rows: CellValue[][];
}

function render<T>(columns: Column<T>[], records: T[]): Spill {
  return {
    columns: columns.map((c) => ({ key: c.key, header: c.header, kind: c.kind, currencyKey: c.currencyKey, currency: c.currency })),
    // A spilled result lands in the workbook too: no echo of the key in it, and no text longer than a cell
    // holds (Excel shows #VALUE! for the whole result then), cut with the tables' visible marker instead.
    rows: records.map((r) => columns.map((c) => {
      const cell = toCell(c.kind, c.value(r));
      return typeof cell === "string" ? fitCell(redactSecrets(cell)) : cell;
    })),
  };
}

/** A whole list with a header row. */
export async function spillList(client: SpendClient, input: LoadParams | Query, options: ListOptions = {}): Promise<Spill> {
  const { source } = Query.parse(input);
  const records = await source.list(client, options).all();
  return render(withoutStatus(source.columns), records);
}

/** A record's columns in a spill (every record function shows all of them, without expand). */
const columnsOf = (kind: RecordKind): Column<object>[] => withoutStatus(recordSpecOf(kind).columns());

/** Column keys and headers of one record's row (for messages about the `field` argument). */
export function recordColumns(kind: RecordKind): { key: string; header: string }[] {
  return columnsOf(kind).map((c) => ({ key: c.key, header: c.header }));
}

/** One record: its columns and its one row. */
export async function spillRecord(client: SpendClient, ref: RecordRef, options: SendOptions = {}): Promise<Spill> {
  return render(columnsOf(ref.kind), [await recordSpecOf(ref.kind).get(client, ref, options)]);
}

/** One page of a scope's list, for the record functions' batches. */
export interface RecordPage {
  page: number;
  /** Records in the whole list, as the page says (null when the service gives no count). */
  count: number | null;
  /** Records asked for a page: the resource's maximum. */
  pageSize: number;
  /** Records on this page, whether they can answer a call or not. */
  size: number;
  /** What `spillRecord` gives for `id` when this page holds it as its GET would answer it; otherwise undefined. */
  spill(id: string): Spill | undefined;
  /** Whether this page lists `id` at all, answerable or not (a record its GET must decide is still listed). */
  holds(id: string): boolean;
}

/** Records asked for a page of a scope's list (the resource's maximum). */
export const recordPageSize = (kind: RecordKind): number => recordSpecOf(kind).pageSize;

/**
 * The pages of a scope's list, each able to give the spill of a record it holds exactly as `spillRecord`
 * would (the same query: an allowance with its segments; the same checks, through the GET's schema: see
 * api/record-lists.ts). A record the page holds but a GET must decide gives undefined, like one it lacks.
 */
export async function* recordPages(client: SpendClient, scope: RecordScope, options: ListOptions = {}): AsyncGenerator<RecordPage> {
  const columns = columnsOf(scope.kind);
  const pageSize = recordPageSize(scope.kind);
  for await (const page of recordSpecOf(scope.kind).pages(client, scope, options).pages()) {
    // Ids are UUIDs, whose hex digits are one id in either case: 3F25… typed in a cell is the record listed as 3f25….
    const byId = new Map<string, object | undefined>();
    for (const listed of page.results) byId.set(listed.id.toLowerCase(), listed.record);
    yield {
      page: page.page, count: page.count, pageSize, size: page.results.length + page.malformed.length,
      spill: (id) => {
        const record = byId.get(id.toLowerCase());
        return record ? render(columns, [record]) : undefined;
      },
      holds: (id) => byId.has(id.toLowerCase()),
    };
  }
}
