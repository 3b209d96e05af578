/**
 * The Card close tables, as rows: the tie-out of the period, one row per movement the service has not
 * reconciled (its proposal, confidence and reasons, or why there is none), the chase list of charges with no
 * expense, and the expenses filed for charges that never posted. Pure: records and the matcher's answer in,
 * rows out. Names, never ids: a person is named, an expense is its number and merchant.
 */
import { MOVEMENT_TYPES, type Expense, type Movement } from "../../api";
import type { CardMatch, MovementOutcome } from "../../domain/card-match";
import type { ColumnKind } from "../columns";
import { toCell } from "../columns";
import type { CardCloseData } from "./read";
import { minorUnits } from "../money-formats";
import { MOVEMENT_TYPE_NAMES } from "../resources/movements";
import type { CellValue } from "../port/workbook";

export interface CloseColumn {
  key: string;
  header: string;
  kind: ColumnKind;
  currencyKey?: string;
  /** The person's own cells: kept by a refresh beside the row they were typed on. */
  typed?: boolean;
  dropdown?: readonly string[];
  width?: number;
}

const ACCEPTED = ["Yes", "No"] as const;
export const STATEMENT_LINE = "Statement total (typed)";
export const OUTCOME_HEADER = "Outcome";

const OUTCOME_TEXT: Record<MovementOutcome["kind"], string> = {
  service: "Reconciled by the service", proposed: "Matched here", split: "Matched here: split", refund: "Refund of a purchase",
  ambiguous: "Ambiguous: choose", fee: "Fee: no expense expected", payment: "Payment to the card", none: "No expense: chase",
};

const text = (key: string, header: string, width?: number): CloseColumn => ({ key, header, kind: "text", width });
const money = (key: string, header: string, currencyKey: string): CloseColumn => ({ key, header, kind: "amount", currencyKey });
const notes: CloseColumn = { key: "notes", header: "Notes", kind: "text", typed: true, width: 160 };

export const TIE_OUT_COLUMNS: CloseColumn[] = [
  text("section", "Section"), text("line", "Line", 170), text("currency", "Currency"),
  { key: "count", header: "Movements", kind: "integer" }, money("amount", "Amount (charges +, deposits −)", "currency"), text("note", "Note", 220),
];

export const MOVEMENT_COLUMNS: CloseColumn[] = [
  { key: "date", header: "Date", kind: "date" }, text("description", "Description", 150), text("type", "Type"),
  money("amount", "Amount (charges +, deposits −)", "currency"), text("currency", "Currency"), text("foreign", "Foreign amount"),
  text("installment", "Installment"), text("reference", "Reference"), text("outcome", OUTCOME_HEADER, 130),
  text("proposal", "Proposed expense", 200), { key: "expense_date", header: "Expense date", kind: "date" },
  money("expense_amount", "Expense amount", "expense_currency"), text("expense_currency", "Expense currency"),
  text("confidence", "Confidence"), text("reasons", "Reasons", 260),
  { key: "accepted", header: "Accepted", kind: "text", typed: true, dropdown: ACCEPTED }, notes,
];

export const CHASE_COLUMNS: CloseColumn[] = [
  text("holder", "Cardholder", 120), text("email", "Email", 150), { key: "date", header: "Date", kind: "date" },
  text("description", "Description", 150), money("amount", "Amount", "currency"), text("currency", "Currency"),
  text("reference", "Reference"), text("why", "Why there is no proposal", 260), notes,
];

export const UNCHARGED_COLUMNS: CloseColumn[] = [
  text("holder", "Cardholder", 120), text("expense", "Expense", 90), { key: "date", header: "Date", kind: "date" },
  text("provider", "Merchant", 130), text("description", "Description", 150), money("amount", "Amount", "currency"),
  text("currency", "Currency"), text("state", "State"), notes,
];

/** Rows of one table, each in its columns' order. */
export type Rows = CellValue[][];

const rowOf = (columns: CloseColumn[], values: Record<string, unknown>): CellValue[] => columns.map((c) => toCell(c.kind, values[c.key]));

/** An amount rounded to its currency's minor units (sums of many cents carry floating-point noise). */
function rounded(amount: number, currency: string): number {
  const f = 10 ** (minorUnits(currency) ?? 2);
  return Math.round(amount * f) / f || 0;
}

/** What a movement adds to the card's balance: deposits negative, whatever sign the service wrote. */
const signed = (m: Movement) => (m.is_deposit ? -Math.abs(m.amount.amount) : Math.abs(m.amount.amount));

/** "Expense 1201 · Starbucks". */
const expenseName = (e: Expense | undefined) => (e ? `Expense ${e.expense_number} · ${e.provider}` : "an expense not in the subsidiaries chosen");

/** The movement rows: every movement the service has not reconciled, in date order. */
export function movementRows(data: CardCloseData, match: CardMatch): Rows {
  const expenses = new Map(data.expenses.map((e) => [e.id, e]));
  const outcomes = new Map(match.outcomes.map((o) => [o.movementId, o]));
  const open = data.movements.filter((m) => outcomes.get(m.id)?.kind !== "service");
  return [...open].sort((a, b) => a.transaction_date.localeCompare(b.transaction_date)).map((m) => {
    const o = outcomes.get(m.id)!;
    const linked = o.expenseIds.map((id) => expenses.get(id));
    const foreign = m.foreign_amount as { amount?: unknown; currency?: unknown } | null;
    const proposal = o.kind === "ambiguous"
      ? o.alternatives.map((set) => set.map((id) => expenseName(expenses.get(id))).join(" + ")).join(" or ")
      : linked.map(expenseName).join(" + ");
    const first = linked[0];
    return rowOf(MOVEMENT_COLUMNS, {
      date: m.transaction_date, description: m.description, type: m.type, amount: signed(m), currency: m.amount.currency,
      foreign: foreign && typeof foreign.amount === "number" ? `${foreign.amount} ${String(foreign.currency ?? "")}` : "",
      installment: m.total_installments > 1 ? `${m.current_installment} of ${m.total_installments}` : "", reference: m.reference_code,
      outcome: OUTCOME_TEXT[o.kind], proposal, expense_date: first?.date, confidence: o.confidence ?? "", reasons: o.reasons.join("; "),
      expense_amount: first ? rounded(linked.reduce((sum, e) => sum + (e?.amount ?? 0), 0), first.currency) : undefined,
      expense_currency: first?.currency,
    });
  });
}

/** The chase list: each charge with no expense, who holds the card, what, when and how much. */
export function chaseRows(data: CardCloseData, match: CardMatch): Rows {
  const byId = new Map(data.movements.map((m) => [m.id, m]));
  return match.outcomes.filter((o) => o.kind === "none" && !byId.get(o.movementId)!.is_deposit)
    .map((o) => byId.get(o.movementId)!).sort((a, b) => a.transaction_date.localeCompare(b.transaction_date))
    .map((m) => rowOf(CHASE_COLUMNS, {
      holder: data.holder, email: data.card.user?.email ?? "", date: m.transaction_date, description: m.description,
      amount: m.amount.amount, currency: m.amount.currency, reference: m.reference_code,
      why: match.outcomes.find((o) => o.movementId === m.id)!.reasons.join("; "),
    }));
}

/** The expenses filed for charges that never posted in this period. */
export function unchargedRows(data: CardCloseData, match: CardMatch): Rows {
  const expenses = new Map(data.expenses.map((e) => [e.id, e]));
  return match.uncharged.map((id) => expenses.get(id)!).map((e) => rowOf(UNCHARGED_COLUMNS, {
    holder: data.holder, expense: `Expense ${e.expense_number}`, date: e.date, provider: e.provider, description: e.description,
    amount: e.amount, currency: e.currency, state: e.state,
  }));
}

export interface CurrencyTie {
  currency: string;
  total: number;
  statement: number | null;
  difference: number | null;
}

/** The tie-out: movements by type, by outcome, the period's total per currency, and its difference to the statement. */
export function tieOutRows(data: CardCloseData, match: CardMatch, statements: ReadonlyMap<string, number>): { rows: Rows; ties: CurrencyTie[] } {
  const outcomes = new Map(match.outcomes.map((o) => [o.movementId, o]));
  const groups = new Map<string, { section: string; line: string; currency: string; count: number; amount: number }>();
  const add = (section: string, line: string, m: Movement) => {
    const key = JSON.stringify([section, line, m.amount.currency]);
    const g = groups.get(key) ?? { section, line, currency: m.amount.currency, count: 0, amount: 0 };
    g.count++;
    g.amount += signed(m);
    groups.set(key, g);
  };
  for (const m of data.movements) {
    add("By type", typeName(m.type), m);
    add("By outcome", OUTCOME_TEXT[outcomes.get(m.id)!.kind], m);
    add("Total", "Period total", m);
  }
  const ordered = [...groups.values()].sort((a, b) => a.currency.localeCompare(b.currency) || sectionOrder(a.section) - sectionOrder(b.section)
    || lineOrder(a.line) - lineOrder(b.line));
  const rows: Rows = [];
  const ties: CurrencyTie[] = [];
  for (const g of ordered) {
    const amount = rounded(g.amount, g.currency);
    rows.push(rowOf(TIE_OUT_COLUMNS, { ...g, amount, note: "" }));
    if (g.section !== "Total") continue;
    const statement = statements.get(g.currency) ?? null;
    const difference = statement === null ? null : rounded(amount - statement, g.currency);
    ties.push({ currency: g.currency, total: amount, statement, difference });
    rows.push(rowOf(TIE_OUT_COLUMNS, { section: "Statement", line: STATEMENT_LINE, currency: g.currency, amount: statement ?? undefined,
      note: statement === null ? "Type the statement's total here (or in the taskpane), then refresh the close" : "" }));
    rows.push(rowOf(TIE_OUT_COLUMNS, { section: "Statement", line: "Difference (period − statement)", currency: g.currency, amount: difference ?? undefined,
      note: difference === null ? "" : difference === 0 ? "Ties out" : "Does not tie out: look for a missing or extra movement" }));
  }
  return { rows, ties };
}

/** A movement type by its name (the load form's and the Summary's); a type the spec does not list, as the service sent it. */
const names: Readonly<Record<string, string>> = MOVEMENT_TYPE_NAMES;
function typeName(type: string): string {
  return Object.hasOwn(names, type) ? names[type] : type;
}

const sectionOrder = (s: string) => ["By type", "By outcome", "Total", "Statement"].indexOf(s);
/** The spec's movement types in its order, then the outcomes from the service's links to what is left to chase. */
const LINES: readonly string[] = [...MOVEMENT_TYPES.map((t) => typeName(t)), ...Object.values(OUTCOME_TEXT)];
const lineOrder = (line: string) => (LINES.includes(line) ? LINES.indexOf(line) : LINES.length);
