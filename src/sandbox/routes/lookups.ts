/** Path lookups shared by the routes: a record outside the key's enterprise is simply not found. */
import { ApiError, notFound } from "../http-errors";
import type { BillingPeriodRec, SubsidiaryRec } from "../model";
import type { Store } from "../store";
import { messageOf } from "../../domain";

export function requireSubsidiary(store: Store, enterpriseId: string, id: string): SubsidiaryRec {
  const sub = store.subsidiary(enterpriseId, id);
  if (!sub) throw notFound("Subsidiary", id);
  return sub;
}

export function requirePeriod(store: Store, enterpriseId: string, cardId: string, periodId: string): BillingPeriodRec {
  const card = store.card(enterpriseId, cardId);
  if (!card) throw notFound("Corporate card", cardId);
  const period = store.billingPeriod(card.id, periodId);
  if (!period) throw notFound("Billing period", periodId);
  return period;
}

/** A PATCH is acknowledged only once its change is saved (`--data`): a failed save is the server's fault. */
export async function savedOrFail(saved: Promise<void>): Promise<void> {
  try {
    await saved;
  } catch (error) {
    process.stderr.write(`sandbox: could not save a change: ${messageOf(error)}\n`);
    throw new ApiError(500, "The change could not be saved to the sandbox's data file; see the sandbox's log.");
  }
}
