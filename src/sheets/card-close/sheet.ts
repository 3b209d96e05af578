/**
 * The Card close of one card's billing period, written as four tables, each on its sheet of the same name:
 * "Close 4242 2026-10-31" (the tie-out), "… movements" (one row per movement the service has not reconciled,
 * with the matcher's proposal), "… chase" (charges with no expense, per cardholder) and "… no charge"
 * (expenses whose charge never posted). A table is always written at the top of its own sheet, so that a
 * list that grows on a refresh can never run into another. Closing the same period again is its refresh: the
 * person's Accepted, Notes and own columns stay beside their rows (card-close/keep.ts), and a statement total
 * typed in the tie-out is kept unless a new one is given.
 */
import type { SpendClient } from "../../api";
import { matchCard, type CardMatch } from "../../domain/card-match";
import { NUMBER_FORMATS } from "../columns";
import { keepTyped } from "./keep";
import { readCardClose, matchInputOf, type CardCloseData, type CardCloseQuery } from "./read";
import {
  CHASE_COLUMNS, MOVEMENT_COLUMNS, OUTCOME_HEADER, STATEMENT_LINE, TIE_OUT_COLUMNS, UNCHARGED_COLUMNS,
  chaseRows, movementRows, tieOutRows, unchargedRows, type CloseColumn, type CurrencyTie, type Rows,
} from "./rows";
import { rowFormatter } from "../money-formats";
import type { CellValue, TableRead, Workbook } from "../port/workbook";

export interface CardCloseRequest extends CardCloseQuery {
  /** The statement's total in the card's currency, as the person typed it; absent keeps the one in the sheet. */
  statementTotal?: number | null;
}

export interface CardCloseReport {
  /** The sheets written, tie-out first. */
  sheets: string[];
  holder: string;
  lastFour: string;
  periodStart: string;
  periodEnd: string;
  /** Movements by outcome kind (service, proposed, split, refund, ambiguous, fee, payment, none). */
  outcomes: Record<string, number>;
  ties: CurrencyTie[];
  chase: number;
  uncharged: number;
  /** Rows whose Accepted / Notes were kept by this refresh, and rows kept only for what was typed on them. */
  keptRows: number;
  carriedRows: number;
}

/**
 * Where a close goes: sheet names under Excel's 31 characters, table names Excel accepts.
 * @internal card-close tests find the close's sheets and tables by it.
 */
export function closePlace(lastFour: string, periodEnd: string) {
  const base = `Close ${lastFour} ${periodEnd}`;
  const table = `CardClose_${lastFour.replace(/\W/g, "")}_${periodEnd.replace(/-/g, "")}`;
  return {
    tieOut: { sheetName: base, tableName: `${table}_TieOut` },
    movements: { sheetName: `${base} movements`, tableName: `${table}_Movements` },
    chase: { sheetName: `${base} chase`, tableName: `${table}_Chase` },
    uncharged: { sheetName: `${base} no charge`, tableName: `${table}_NoCharge` },
  };
}

/** Reads the period, matches it and writes (or refreshes) its Card close tables. */
export async function writeCardClose(client: SpendClient, workbook: Workbook, request: CardCloseRequest, signal?: AbortSignal): Promise<CardCloseReport> {
  const data = await readCardClose(client, request, signal);
  const match = matchCard(matchInputOf(data));
  return writeCloseTables(workbook, data, match, request.statementTotal);
}

/** Writes the four tables of a matched period. */
async function writeCloseTables(workbook: Workbook, data: CardCloseData, match: CardMatch, statementTotal?: number | null): Promise<CardCloseReport> {
  const place = closePlace(data.card.last_four_digits, data.periodEnd);
  const oldTieOut = await workbook.readTable(place.tieOut.tableName);
  const statements = typedStatements(oldTieOut);
  if (typeof statementTotal === "number" && Number.isFinite(statementTotal)) statements.set(data.card.national_balance_currency, statementTotal);
  const tie = tieOutRows(data, match, statements);
  let keptRows = 0;
  let carriedRows = 0;
  const write = async (where: { sheetName: string; tableName: string }, columns: CloseColumn[], rows: Rows, keys: string[]) => {
    const old = await workbook.readTable(where.tableName);
    const header = columns.map((c) => c.header);
    const typed = columns.filter((c) => c.typed).map((c) => c.header);
    const gone = header.includes(OUTCOME_HEADER) ? { header: OUTCOME_HEADER, text: "No longer open (reconciled by the service, or gone from the period)" } : null;
    const kept = keys.length > 0 ? keepTyped(old, header, rows, keys, typed, gone) : keepTyped(null, header, rows, [], [], null);
    keptRows += kept.kept;
    carriedRows += kept.carried;
    const extra = kept.header.slice(columns.length);
    const formatOf = rowFormatter(columns);
    const base = [...columns.map((c) => NUMBER_FORMATS[c.kind]), ...extra.map(() => null)];
    await workbook.writeTable({
      ...where, header: kept.header, rows: kept.rows, formulas: kept.formulas,
      numberFormats: base,
      formatsOf: formatOf ? (row) => [...formatOf(row.slice(0, columns.length)), ...extra.map(() => null)] : undefined,
      editable: [...columns.map((c) => c.typed === true), ...extra.map(() => false)],
      dropdowns: [...columns.map((c) => c.dropdown ?? null), ...extra.map(() => null)],
      widths: [...columns.map((c) => c.width), ...extra.map(() => undefined)],
    });
  };
  await write(place.tieOut, TIE_OUT_COLUMNS, tie.rows, []);
  const movementKeys = ["Reference", "Date", "Amount (charges +, deposits −)"];
  await write(place.movements, MOVEMENT_COLUMNS, movementRows(data, match), movementKeys);
  const chase = chaseRows(data, match);
  await write(place.chase, CHASE_COLUMNS, chase, ["Reference", "Date", "Amount"]);
  const uncharged = unchargedRows(data, match);
  await write(place.uncharged, UNCHARGED_COLUMNS, uncharged, ["Expense"]);
  const outcomes: Record<string, number> = {};
  for (const o of match.outcomes) outcomes[o.kind] = (outcomes[o.kind] ?? 0) + 1;
  return {
    sheets: Object.values(place).map((p) => p.sheetName), holder: data.holder, lastFour: data.card.last_four_digits,
    periodStart: data.periodStart, periodEnd: data.periodEnd, outcomes, ties: tie.ties, chase: chase.length,
    uncharged: uncharged.length, keptRows, carriedRows,
  };
}

/** The statement totals typed in the tie-out's Statement lines, by currency. */
function typedStatements(table: TableRead | null): Map<string, number> {
  const out = new Map<string, number>();
  if (!table) return out;
  const col = (header: string) => table.header.indexOf(header);
  const [line, currency, amount] = [col(TIE_OUT_COLUMNS[1].header), col(TIE_OUT_COLUMNS[2].header), col(TIE_OUT_COLUMNS[4].header)];
  for (const row of table.rows) {
    const value: CellValue | undefined = row[amount];
    if (row[line] === STATEMENT_LINE && typeof value === "number") out.set(String(row[currency]), value);
  }
  return out;
}
