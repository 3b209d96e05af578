/** The card-close matcher: pure, documented in docs/reconciliation.md. */
export { matchCard } from "./match";
export type { CardExpense, CardMatch, CardMovement, MatchInput, MovementOutcome } from "./types";
