/**
 * Records as the API shows them (spec section 2): fields in the spec's order, `*_id` fields replaced by
 * objects where the spec says expand replaces them, objects added where it says expand adds them.
 */
import { createHmac } from "node:crypto";
import type { AllowanceRec, CardRec, ExpenseRec, MovementRec, PersonRec } from "./model";
import { usdAt } from "./demo-money";
import type { Store } from "./store";

type Json = Record<string, unknown>;

/** How long a document's signed URL stays valid. */
const SIGNED_URL_SECONDS = 15 * 60;

function personView(p: PersonRec | undefined): Json | null {
  if (!p) return null;
  return {
    id: p.id, first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone,
    internal_id: p.internal_id, government_id: p.government_id,
  };
}

/** A temporarily signed URL, as object stores hand out (spec 2.2 documents). */
function signedUrl(path: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + SIGNED_URL_SECONDS;
  const signature = createHmac("sha256", "spend-sandbox").update(`${path}:${expires}`).digest("hex");
  return `https://files.spend-sandbox.example${path}?expires=${expires}&signature=${signature}`;
}

export function cardView(store: Store, card: CardRec, expand: Set<string>): Json {
  const bank = store.bank(card.bank_id);
  return {
    id: card.id,
    ...(expand.has("user") ? { user: personView(store.person(card.user_id)) } : { user_id: card.user_id }),
    last_four_digits: card.last_four_digits,
    bank_id: card.bank_id,
    ...(expand.has("bank") && bank ? { bank: { id: bank.id, name: bank.name, country: bank.country, swift_code: bank.swift_code } } : {}),
    national_balance_currency: card.national_balance_currency,
    international_balance_currency: card.international_balance_currency,
    billing_day: card.billing_day,
    billing_mode: card.billing_mode,
  };
}

export function movementView(store: Store, m: MovementRec, expand: Set<string>): Json {
  const view: Json = {
    id: m.id, amount: m.amount, description: m.description, transaction_date: m.transaction_date,
    is_deposit: m.is_deposit,
  };
  if (expand.has("renconciliation")) view.reconciliation = reconciliationView(store, m);
  Object.assign(view, {
    type: m.type, current_installment: m.current_installment, total_installments: m.total_installments,
    reference_code: m.reference_code, foreign_amount: m.foreign_amount, is_debt_transfer: m.is_debt_transfer,
  });
  return view;
}

/** Null for a movement not reconciled with an expense (docs/sandbox.md). */
function reconciliationView(store: Store, m: MovementRec): Json | null {
  const expense = m.reconciliation && store.expenseById(m.reconciliation.expense_id);
  if (!m.reconciliation || !expense) return null;
  const costCenter = store.costCenter(expense.cost_center_id);
  return {
    id: m.reconciliation.id,
    expense: {
      id: expense.id, description: expense.description, expense_number: expense.expense_number,
      date: `${expense.date}T00:00:00Z`, amount: { amount: expense.amount, currency: expense.currency },
      // Spec 2.4 types this money, not nullable (unlike the expense's own usd_amount, spec 2.3).
      usd_amount: { amount: expense.usd_amount ?? usdAt(expense.amount, expense.currency), currency: "USD" },
      cost_center: costCenter ? { id: costCenter.id, name: costCenter.name } : null,
      state: expense.state,
    },
  };
}

export function allowanceView(store: Store, a: AllowanceRec, expand: Set<string>): Json {
  const view: Json = {
    id: a.id, allowance_number: a.allowance_number, description: a.description, state: a.state,
    ...(expand.has("beneficiary")
      ? { beneficiary: personView(store.person(a.beneficiary_id)) }
      : { beneficiary_id: a.beneficiary_id }),
    cost_center_id: a.cost_center_id, start_date: a.start_date, end_date: a.end_date, days: a.days,
    amount: a.amount, currency: a.currency, converted_amount: a.converted_amount, accounted_id: a.accounted_id,
    paid_id: a.paid_id, paid_at: a.paid_at, created_at: a.created_at, updated_at: a.updated_at,
    is_active: a.is_active,
  };
  if (expand.has("allowance_segments")) view.allowance_segments = a.allowance_segments;
  if (expand.has("documents")) {
    view.documents = a.documents.map((d) => ({
      id: d.id, name: d.name, content_type: d.content_type,
      url: signedUrl(`/allowances/${a.id}/documents/${d.id}/${d.name}`),
    }));
  }
  return view;
}

/** The PATCH response of spec 4.5. */
export function allowancePatchView(a: AllowanceRec): Json {
  return {
    id: a.id, state: a.state, accounted_id: a.accounted_id, paid_id: a.paid_id, paid_at: a.paid_at,
    converted_amount: a.converted_amount, updated_at: a.updated_at,
  };
}

export interface ExpenseViewOptions {
  expand: Set<string>;
  /** The detail response also carries additional_questions (spec 2.3). */
  detail: boolean;
  /** The enterprise has the additional-files add-on: additional_file_url is present. */
  additionalFiles: boolean;
}

export function expenseView(store: Store, e: ExpenseRec, { expand, detail, additionalFiles }: ExpenseViewOptions): Json {
  const named = (rec: { id: string; name: string; internal_id: string } | undefined) =>
    rec ? { id: rec.id, name: rec.name, internal_id: rec.internal_id } : null;
  const view: Json = {
    id: e.id, description: e.description, expense_type: e.expense_type, currency: e.currency, amount: e.amount,
    usd_amount: e.usd_amount, state: e.state, date: e.date, expense_number: e.expense_number,
    content_type: e.content_type,
    ...(expand.has("cost_center") ? { cost_center: named(store.costCenter(e.cost_center_id)) } : { cost_center_id: e.cost_center_id }),
    ...(expand.has("category") ? { category: named(store.category(e.category_id)) } : { category_id: e.category_id }),
    ...(expand.has("user") ? { user: personView(store.person(e.user_id)) } : { user_id: e.user_id }),
    ...(expand.has("fund") ? { fund: fundView(store, e.fund_id) } : { fund_id: e.fund_id }),
    is_active: e.is_active, created_at: e.created_at, url: e.url, document_id: e.document_id,
    expense_document_type: e.expense_document_type, provider: e.provider, payment_method: e.payment_method,
    net_amount: e.net_amount, tax_amount: e.tax_amount, tax_rate: e.tax_rate,
    subsidiary_currency: e.subsidiary_currency, subsidiary_expense_amount: e.subsidiary_expense_amount,
    accounted_id: e.accounted_id, paid_id: e.paid_id, paid_at: e.paid_at,
  };
  if (expand.has("approved_by")) {
    view.approved_by = e.approver_ids.map((id) => {
      const p = store.person(id);
      return p ? { id: p.id, first_name: p.first_name, last_name: p.last_name, email: p.email } : { id };
    });
  }
  if (expand.has("fare")) {
    const fare = e.fare_id ? store.fare(e.fare_id) : undefined;
    view.fare = fare ? { id: fare.id, name: fare.name, rate: fare.rate } : null;
  }
  if (detail) view.additional_questions = e.additional_questions;
  if (additionalFiles) view.additional_file_url = `https://files.spend-sandbox.example/additional/${e.id}.zip`;
  return view;
}

function fundView(store: Store, fundId: string | null): Json | null {
  const fund = fundId ? store.fund(fundId) : undefined;
  return fund ? { id: fund.id, fund_number: fund.fund_number, description: fund.description, status: fund.status } : null;
}
