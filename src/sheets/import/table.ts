/**
 * A loaded allowances or expenses table as the import's matcher sees it: each row's record (number, person,
 * amount in minor units, dates, tracked values as the sheet shows them now) read from only the columns it needs.
 */
import { numberToMinor, personKey, type ImportRecord } from "../../domain/import";
import { dayNumber } from "../../domain/import/dates";
import type { TrackedResource } from "../../domain";
import { Query } from "../resources";
import { STATUS_KEY, TRACKED_KEYS, type TrackedKey } from "../resources/tracking";
import { minorUnits } from "../money-formats";
import { readStoredTable } from "../stored-tables";
import { canonical } from "../edits/tracked-values";
import { serialToDate } from "../port/values";
import type { CellValue, Workbook } from "../port/workbook";
import { WorkbookError, tableGone } from "../port/workbook-errors";

export interface ImportTable {
  tableName: string;
  resource: TrackedResource;
  records: ImportRecord[];
  /** Column of each tracked field and of Sync status in the table. */
  columns: Record<TrackedKey | typeof STATUS_KEY, number>;
  /** Sync status of each body row, as the sheet shows it now. */
  statuses: string[];
}

const KEYS: Record<TrackedResource, { number: string; first: string; last: string; persons: string[]; label: string }> = {
  expense: { number: "expense_number", first: "date", last: "date", persons: ["user_name", "user_email", "user_id"], label: "Expense" },
  allowance: { number: "allowance_number", first: "start_date", last: "end_date", persons: ["beneficiary_name", "beneficiary_email", "beneficiary_id"], label: "Allowance" },
};

/** Days since 1970 of a date or timestamp cell (a serial, or ISO text); null when it holds none. */
function dayOf(value: CellValue | undefined): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return dayNumber(serialToDate(Math.floor(value)));
  const text = String(value ?? "").trim();
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? dayNumber(text.slice(0, 10)) : null;
}

/** `read`, remembered per argument. */
function once<A, R>(read: (arg: A) => R): (arg: A) => R {
  const seen = new Map<A, R>();
  return (arg) => {
    if (seen.has(arg)) return seen.get(arg)!;
    const value = read(arg);
    seen.set(arg, value);
    return value;
  };
}

/** The decimals of a currency: ISO's, 2 for a code not listed. */
export const currencyDecimals = (code: string): number => minorUnits(code) ?? 2;

/** Reads the table's records for an import; throws WorkbookError when the table is not an allowances or expenses table of Spend Sync. */
export async function readImportTable(workbook: Workbook, tableName: string): Promise<ImportTable> {
  const stored = await readStoredTable(workbook, tableName);
  if (!stored) throw new WorkbookError("not-ours", `The table ${tableName} was not loaded by Spend Sync: load allowances or expenses, then import into that table.`);
  const query = Query.ofParsed(stored.params);
  if (!query.tracked) throw new WorkbookError("not-ours", `Only allowances and expenses have states to fill; the ${stored.params.resource} table is read-only.`);
  const resource = query.tracked.spec.resource;
  const k = KEYS[resource];
  const layout = query.source.columns;
  const headerOf = (key: string) => layout.find((c) => c.key === key)?.header;
  const wanted = ["id", k.number, k.first, k.last, "amount", "currency", ...k.persons, ...TRACKED_KEYS, STATUS_KEY];
  const headers = [...new Set(wanted.map(headerOf).filter((h): h is string => h !== undefined))];
  const read = await workbook.readColumns(tableName, headers);
  if (!read) throw tableGone(tableName);
  const column = (key: string) => read.columns.get(headerOf(key) ?? "");
  const columns = {} as ImportTable["columns"];
  for (const key of [...TRACKED_KEYS, STATUS_KEY] as const) {
    const at = read.header.indexOf(headerOf(key) ?? "");
    if (at < 0) throw new WorkbookError("table-changed", `The column "${headerOf(key)}" is missing from the table ${tableName} (renamed or deleted?). Put it back, or load the table again.`);
    columns[key] = at;
  }
  const cells = (key: string, row: number): CellValue | undefined => column(key)?.[row];
  // A table names the same few hundred people and days tens of thousands of times: each read once.
  const personOf = once((text: string) => personKey(text));
  const dayIn = once(dayOf);
  const records: ImportRecord[] = [];
  for (let row = 0; row < read.rowCount; row++) {
    const id = String(cells("id", row) ?? "").trim();
    if (!id) continue;
    const amount = cells("amount", row);
    const currency = String(cells("currency", row) ?? "").trim().toUpperCase();
    const tracked = Object.fromEntries(TRACKED_KEYS.map((key) => [key, canonical(key, cells(key, row))])) as Record<TrackedKey, string>;
    records.push({
      row, id, label: `${k.label} ${String(cells(k.number, row) ?? "")}`, number: String(cells(k.number, row) ?? "").trim(),
      persons: k.persons.map((key) => personOf(String(cells(key, row) ?? ""))).filter(Boolean),
      minor: typeof amount === "number" ? numberToMinor(amount, currencyDecimals(currency)) : null, currency,
      from: dayIn(cells(k.first, row)), to: dayIn(cells(k.last, row)), ...tracked,
    });
  }
  const statuses = Array.from({ length: read.rowCount }, (_, row) => String(cells(STATUS_KEY, row) ?? ""));
  return { tableName, resource, records, columns, statuses };
}
