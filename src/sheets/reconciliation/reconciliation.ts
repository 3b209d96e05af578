/**
 * The reconciliation summary of a movements table, read at a glance: per movement type, reconciled or not,
 * and currency, how many movements and their amount, then totals per currency. Pure: computed from the
 * table's cells as the sheet shows them, so it always agrees with the table beside it.
 *
 * Sign convention: a charge counts positive and a deposit (Deposit = Yes: a payment to the card) negative,
 * whatever sign the Amount column shows, so a total is what those movements add to the card's balance.
 */
import { MOVEMENT_TYPES } from "../../api";
import type { CellValue } from "../port/workbook";
import { MOVEMENT_TYPE_NAMES } from "../resources/movements";

/** One movement as the summary needs it. */
export interface SummaryMovement {
  type: string;
  /** null when the table does not say (loaded without the reconciliation). */
  reconciled: boolean | null;
  currency: string;
  /** null when the Amount cell holds no number (the movement is still counted). */
  amount: number | null;
  deposit: boolean;
}

type ReconciledLabel = "Reconciled" | "Not reconciled" | "Not shown" | "All";

export interface SummaryLine {
  /** A movement type, or ALL_TYPES on a total line. */
  type: string;
  reconciled: ReconciledLabel;
  currency: string;
  count: number;
  /** Signed sum (see the sign convention above), rounded to remove floating-point noise. */
  amount: number;
}

export const ALL_TYPES = "All types";
export const SUMMARY_HEADER = ["Type", "Reconciliation", "Currency", "Movements", "Amount (charges +, deposits −)"];

/**
 * The amount a movement adds to the card's balance: deposits negative, charges as shown.
 * @internal reconciliation-summary test checks the sign per movement type directly.
 */
export function signedAmount(m: SummaryMovement): number {
  if (m.amount === null) return 0;
  return m.deposit ? -Math.abs(m.amount) : m.amount;
}

const label = (reconciled: boolean | null): ReconciledLabel =>
  reconciled === null ? "Not shown" : reconciled ? "Reconciled" : "Not reconciled";
const LABEL_ORDER: ReconciledLabel[] = ["Reconciled", "Not reconciled", "Not shown", "All"];
const round = (n: number) => Math.round(n * 1e6) / 1e6 || 0;

const SPEC_TYPES: readonly string[] = MOVEMENT_TYPES;

/** The spec's types first, in its order, then any other type the service sent, alphabetically. */
function typeOrder(a: string, b: string): number {
  const ia = SPEC_TYPES.indexOf(a);
  const ib = SPEC_TYPES.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  return a.localeCompare(b);
}

/**
 * Lines by type × reconciled × currency (only those with movements), then per currency the totals of all
 * types: reconciled, not reconciled, and all. An empty table gives one total line of 0.
 */
export function summarizeMovements(movements: readonly SummaryMovement[]): SummaryLine[] {
  const groups = new Map<string, SummaryLine>();
  const add = (type: string, reconciled: ReconciledLabel, currency: string, m: SummaryMovement) => {
    const key = JSON.stringify([type, reconciled, currency]);
    const line = groups.get(key) ?? { type, reconciled, currency, count: 0, amount: 0 };
    line.count++;
    line.amount += signedAmount(m);
    groups.set(key, line);
  };
  for (const m of movements) {
    add(m.type, label(m.reconciled), m.currency, m);
    add(ALL_TYPES, label(m.reconciled), m.currency, m);
    add(ALL_TYPES, "All", m.currency, m);
  }
  const lines = [...groups.values()].map((l) => ({ ...l, amount: round(l.amount) }));
  const byType = lines.filter((l) => l.type !== ALL_TYPES);
  const totals = lines.filter((l) => l.type === ALL_TYPES);
  const order = (a: SummaryLine, b: SummaryLine) =>
    LABEL_ORDER.indexOf(a.reconciled) - LABEL_ORDER.indexOf(b.reconciled) || a.currency.localeCompare(b.currency);
  byType.sort((a, b) => typeOrder(a.type, b.type) || order(a, b));
  // Totals grouped per currency, so each currency's three lines read together.
  totals.sort((a, b) => a.currency.localeCompare(b.currency) || order(a, b));
  if (totals.length === 0) totals.push({ type: ALL_TYPES, reconciled: "All", currency: "", count: 0, amount: 0 });
  return [...byType, ...totals];
}

/** A Yes/No cell as the tables write booleans (also a real boolean, or TRUE/FALSE typed by hand). */
function yes(cell: CellValue | undefined): boolean | null {
  if (typeof cell === "boolean") return cell;
  const text = String(cell ?? "").trim().toLowerCase();
  if (text === "yes" || text === "true") return true;
  if (text === "no" || text === "false") return false;
  return null;
}

/** Where the summary reads a movements table's cells: one column per field (reconciled may be absent). */
export interface MovementCells {
  rowCount: number;
  type: readonly CellValue[];
  amount: readonly CellValue[];
  currency: readonly CellValue[];
  deposit: readonly CellValue[];
  reconciled?: readonly CellValue[];
  /** Left out: rows whose status says the query no longer returns them. */
  leftOut?: (row: number) => boolean;
  /** What the table's query says about reconciliation when there is no Reconciled column. */
  reconciledByQuery?: boolean;
}

/** The movements of a table's cells, with how many rows were left out. */
export function movementsOfCells(cells: MovementCells): { movements: SummaryMovement[]; leftOut: number } {
  const movements: SummaryMovement[] = [];
  let leftOut = 0;
  for (let row = 0; row < cells.rowCount; row++) {
    const type = String(cells.type[row] ?? "").trim();
    if (type === "" && String(cells.amount[row] ?? "") === "") continue; // an empty row
    if (cells.leftOut?.(row)) {
      leftOut++;
      continue;
    }
    const amount = cells.amount[row];
    movements.push({
      type: type || "(no type)",
      reconciled: cells.reconciled ? yes(cells.reconciled[row]) : (cells.reconciledByQuery ?? null),
      currency: String(cells.currency[row] ?? "").trim(),
      amount: typeof amount === "number" && Number.isFinite(amount) ? amount : null,
      deposit: yes(cells.deposit[row]) === true,
    });
  }
  return { movements, leftOut };
}

const typeNames: Readonly<Record<string, string>> = MOVEMENT_TYPE_NAMES;

/** The summary's rows as cells, in SUMMARY_HEADER's order: a type the spec lists in its words, another as sent. */
export function summaryRows(lines: readonly SummaryLine[]): CellValue[][] {
  return lines.map((l) => [Object.hasOwn(typeNames, l.type) ? typeNames[l.type] : l.type, l.reconciled, l.currency, l.count, l.amount]);
}
