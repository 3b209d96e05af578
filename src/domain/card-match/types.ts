/**
 * What the card-close matcher reads and answers. Plain records, no service types: the sheets layer maps the
 * service's movements and expenses onto these, and the scoring test maps the sandbox's records.
 */

/** A movement of the billing period. */
export interface CardMovement {
  id: string;
  /** As the statement shows it: a deposit's amount may be written positive or negative. */
  amount: number;
  currency: string;
  /** The purchase in the currency it was made in, for a purchase abroad. */
  foreign: { amount: number; currency: string } | null;
  /** YYYY-MM-DD. */
  date: string;
  description: string;
  /** payment, expense, associated_fee, other_fee (or another the service sends). */
  type: string;
  deposit: boolean;
  installment: { current: number; total: number };
  /** The expense the service reconciled this movement with, if any. */
  reconciledExpenseId: string | null;
}

/** An expense someone filed. */
export interface CardExpense {
  id: string;
  userId: string;
  amount: number;
  currency: string;
  /** The amount in the card's currency by the service's own conversion, when it has one. */
  converted: number | null;
  /** YYYY-MM-DD. */
  date: string;
  provider: string;
  description: string;
  paymentMethod: string;
  /** The expense's category name ("" when not known): a tip is read only on a meal. */
  category: string;
  /** False for a rejected expense: never a candidate. */
  active: boolean;
}

export interface MatchInput {
  /** The cardholder: only their expenses are candidates. */
  holderId: string;
  /** YYYY-MM-DD, the billing period. */
  periodStart: string;
  periodEnd: string;
  movements: readonly CardMovement[];
  expenses: readonly CardExpense[];
  /** ISO 4217 minor units of a currency (amounts are compared in whole minor units). */
  decimals(currency: string): number;
}

export type Confidence = "High" | "Medium" | "Low";

/**
 * - service: the service's own reconciliation; proposed: one expense, or several whose sum is exact (`split`);
 * - refund: a deposit traced to the purchase it gives back; fee / payment: explained, no expense expected;
 * - ambiguous: candidates that score alike, every one listed and none chosen; none: why there is no proposal.
 */
type OutcomeKind = "service" | "proposed" | "split" | "refund" | "ambiguous" | "fee" | "payment" | "none";

export interface MovementOutcome {
  movementId: string;
  kind: OutcomeKind;
  /** The expenses of the link (service, proposed, split, refund); empty otherwise. */
  expenseIds: string[];
  /** For ambiguous: each candidate (one expense, or a split's expenses) alike in score. */
  alternatives: string[][];
  confidence: Confidence | null;
  score: number | null;
  /** Why this proposal, why ambiguous, or why none: in words a person checks against the statement. */
  reasons: string[];
}

export interface CardMatch {
  /** One per movement, in the order given. */
  outcomes: MovementOutcome[];
  /** The holder's card expenses dated in the period (or its posting window) that no movement accounts for. */
  uncharged: string[];
}
