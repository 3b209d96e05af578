/**
 * The records an ERP or a bank file is about, seen the same way for allowances and expenses: what a file line
 * says of them (number, person, amount, dates) and what the table holds (state and tracked ids).
 */
import { DECIMALS } from "./demo-money";
import type { PersonRec, SandboxData } from "./model";

export type FileResource = "expense" | "allowance";

export interface FileRecord {
  id: string;
  subsidiaryId: string;
  number: number;
  person: PersonRec;
  amount: number;
  currency: string;
  /** YYYY-MM-DD: an expense's date, an allowance's start. */
  first: string;
  /** ... and an allowance's end. */
  last: string;
  state: string;
  accounted_id: string | null;
  paid_id: string | null;
}

/** The records of one resource of one subsidiary (or of every other subsidiary of its enterprise). */
export function fileRecords(data: SandboxData, resource: FileResource, subsidiaryId: string, others = false): FileRecord[] {
  const people = new Map(data.people.map((p) => [p.id, p]));
  const enterprise = data.subsidiaries.find((s) => s.id === subsidiaryId)?.enterprise_id;
  const inScope = (sub: string) => (others ? sub !== subsidiaryId && data.subsidiaries.find((s) => s.id === sub)?.enterprise_id === enterprise : sub === subsidiaryId);
  if (resource === "expense") {
    return data.expenses.filter((e) => inScope(e.subsidiary_id)).map((e) => ({
      id: e.id, subsidiaryId: e.subsidiary_id, number: e.expense_number, person: people.get(e.user_id)!, amount: e.amount, currency: e.currency,
      first: e.date, last: e.date, state: e.state, accounted_id: e.accounted_id, paid_id: e.paid_id,
    }));
  }
  return data.allowances.filter((a) => inScope(a.subsidiary_id)).map((a) => ({
    id: a.id, subsidiaryId: a.subsidiary_id, number: a.allowance_number, person: people.get(a.beneficiary_id)!, amount: a.amount.amount,
    currency: a.amount.currency, first: a.start_date.slice(0, 10), last: a.end_date.slice(0, 10), state: a.state, accounted_id: a.accounted_id, paid_id: a.paid_id,
  }));
}

/** Minor units of an amount in its currency. */
export const minorOf = (amount: number, currency: string) => Math.round(amount * 10 ** (DECIMALS[currency] ?? 2));

/** Days since 1970 of a YYYY-MM-DD. */
export const dayOf = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/** YYYY-MM-DD of a day number. */
export const dayText = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
