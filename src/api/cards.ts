/** Corporate cards (spec 2.1, 4.1, 4.2). */
import { z } from "zod";
import type { SendOptions, SpendClient } from "./client";
import { Envelope, Id, Opaque, Person, type ExpandOf } from "./common";
import { Paginated, type ListOptions } from "./pagination";
import { asGot, type ListedRecord } from "./record-lists";

export const CARD_EXPAND = ["bank", "user"] as const;
export const CARD_MAX_PAGE_SIZE = 100;

/**
 * "Fields of the expanded bank object: not shown": kept whole, nothing required (the sandbox sends id, name,
 * country and swift_code, docs/sandbox.md).
 */
export const Bank = Opaque;

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

/** A card as its GET answers it (spec 4.1): with the envelope fields. */
export const CardDetail = Card.extend(Envelope);

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

/** The enterprise's cards, each as its GET would answer it (record-lists.ts): what the record functions' batches read. */
export function listCardsAsGot(client: SpendClient, query: CardQuery = {}, options: ListOptions = {}): Paginated<ListedRecord<Card>> {
  return new Paginated(client, {
    resource: "corporate cards", path: "corporate-cards/", query: { expand: query.expand }, item: asGot(CardDetail), maxPageSize: CARD_MAX_PAGE_SIZE,
  }, options);
}
