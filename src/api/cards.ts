/** Corporate cards (spec 2.1, 4.1, 4.2). */
import { z } from "zod";
import type { SendOptions, SpendClient } from "./client";
import { Envelope, Id, Person, type ExpandOf } from "./common";
import { Paginated, type ListOptions } from "./pagination";

export const CARD_EXPAND = ["bank", "user"] as const;
export const CARD_MAX_PAGE_SIZE = 100;

/** Bank fields are not in the spec; these are the sandbox's (docs/sandbox.md). All optional. */
export const Bank = z.object({ id: Id, name: z.string().optional(), country: z.string().optional(), swift_code: z.string().optional() });

export const Card = z.object({
  id: Id,
  user_id: Id.optional(),
  user: Person.optional(),
  last_four_digits: z.string(),
  bank_id: Id,
  bank: Bank.optional(),
  national_balance_currency: z.string(),
  international_balance_currency: z.string(),
  billing_day: z.number().int(),
  billing_mode: z.string(),
});
export type Card = z.infer<typeof Card>;

const CardDetail = Card.extend(Envelope);

export interface CardQuery {
  expand?: ExpandOf<typeof CARD_EXPAND>;
}

export function listCards(client: SpendClient, query: CardQuery = {}, options: ListOptions = {}): Paginated<Card> {
  return new Paginated(client, {
    resource: "corporate cards", path: "corporate-cards/", query: { expand: query.expand }, item: Card,
    maxPageSize: CARD_MAX_PAGE_SIZE,
  }, options);
}

export function getCard(client: SpendClient, cardId: string, query: CardQuery = {}, options: SendOptions = {}): Promise<Card> {
  const url = client.url(`corporate-cards/${encodeURIComponent(cardId)}/`, { expand: query.expand });
  return client.get(CardDetail, "corporate card", url, options);
}
