/** The sandbox's stored records: the spec's fields (section 2) before expansion, plus their links. */

export interface Money {
  amount: number;
  currency: string;
}

export interface EnterpriseRec {
  id: string;
  name: string;
  api_key: string;
  /** The "additional files" add-on of spec 2.3: expenses carry additional_file_url only when on. */
  additional_files_enabled: boolean;
}

export interface SubsidiaryRec {
  id: string;
  enterprise_id: string;
  name: string;
  currency: string;
}

/** A card holder, beneficiary, expense owner or approver. */
export interface PersonRec {
  id: string;
  enterprise_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  internal_id: string;
  government_id: string;
}

export interface BankRec {
  id: string;
  name: string;
  country: string;
  swift_code: string;
}

/** A cost center or an expense category. */
export interface NamedRec {
  id: string;
  enterprise_id: string;
  name: string;
  internal_id: string;
}

export interface FundRec {
  id: string;
  enterprise_id: string;
  fund_number: number;
  description: string;
  status: "open" | "closed";
}

export interface FareRec {
  id: string;
  name: string;
  kind: "per_diem" | "mileage";
  rate: Money;
}

export interface CardRec {
  id: string;
  enterprise_id: string;
  user_id: string;
  last_four_digits: string;
  bank_id: string;
  national_balance_currency: string;
  international_balance_currency: string;
  billing_day: number;
  billing_mode: string;
}

export interface BillingPeriodRec {
  id: string;
  card_id: string;
  start_date: string;
  end_date: string;
}

export interface MovementRec {
  id: string;
  card_id: string;
  billing_period_id: string;
  amount: Money;
  description: string;
  transaction_date: string;
  is_deposit: boolean;
  type: "payment" | "expense" | "associated_fee" | "other_fee";
  current_installment: number;
  total_installments: number;
  reference_code: string;
  foreign_amount: Money | null;
  is_debt_transfer: boolean;
  /** The expense this movement is reconciled with, if any. */
  reconciliation: { id: string; expense_id: string } | null;
}

interface SegmentRec {
  id: string;
  start_date: string;
  end_date: string;
  fare_id: string;
  fare_name: string;
  days: number;
  amount: Money;
  converted_amount: Money;
}

interface DocumentRec {
  id: string;
  name: string;
  content_type: string;
}

export interface AllowanceRec {
  id: string;
  subsidiary_id: string;
  allowance_number: number;
  description: string;
  state: string;
  beneficiary_id: string;
  cost_center_id: string;
  start_date: string;
  end_date: string;
  days: number;
  amount: Money;
  currency: string;
  converted_amount: number;
  accounted_id: string | null;
  paid_id: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
  is_active: boolean;
  allowance_segments: SegmentRec[];
  documents: DocumentRec[];
}

export interface ExpenseRec {
  id: string;
  subsidiary_id: string;
  description: string;
  expense_type: string;
  currency: string;
  amount: number;
  usd_amount: number | null;
  state: string;
  date: string;
  expense_number: number;
  content_type: string;
  cost_center_id: string;
  category_id: string;
  user_id: string;
  fund_id: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  url: string;
  document_id: string;
  expense_document_type: string;
  provider: string;
  payment_method: string;
  net_amount: number;
  tax_amount: number;
  tax_rate: number;
  subsidiary_currency: string;
  subsidiary_expense_amount: number;
  accounted_id: string | null;
  paid_id: string | null;
  paid_at: string | null;
  approver_ids: string[];
  /** Only mileage expenses have a fare. */
  fare_id: string | null;
  additional_questions: { question: string; answer: string }[];
}

/** One applied state change: the sandbox's audit trail, for tests that must prove "never twice". */
export interface TransitionRec {
  at: string;
  resource: "allowance" | "expense";
  id: string;
  from: string;
  to: string;
  fields: Record<string, string>;
}

/** How a card-close demo movement came to be (docs/reconciliation.md lists what each pattern makes hard). */
export type CardPattern =
  | "plain" | "service" | "foreign" | "tip" | "twin" | "split" | "installment" | "refund" | "fee" | "payment" | "unfiled";

/**
 * The true partners of the card-close demo's movements, kept so a matcher can be scored. It lives in the data
 * file only: no route reads it, so no answer carries it.
 */
export interface CardCloseTruth {
  links: { movement_id: string; expense_ids: string[]; pattern: CardPattern }[];
  /** Card expenses filed for charges that never posted. */
  never_posted: string[];
}

export interface SandboxData {
  version: 1;
  /** With `--data`: the last change-log sequence number this snapshot contains (persistence.ts). */
  log_seq?: number;
  seed: number;
  scale: number;
  anchor: string;
  enterprises: EnterpriseRec[];
  subsidiaries: SubsidiaryRec[];
  people: PersonRec[];
  banks: BankRec[];
  cost_centers: NamedRec[];
  categories: NamedRec[];
  funds: FundRec[];
  fares: FareRec[];
  cards: CardRec[];
  billing_periods: BillingPeriodRec[];
  movements: MovementRec[];
  allowances: AllowanceRec[];
  expenses: ExpenseRec[];
  transitions: TransitionRec[];
  /** With `--card-close`: the hidden truth of the card-close cards (never served). */
  card_close_truth?: CardCloseTruth;
}
