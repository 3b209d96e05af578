/** Corporate cards: the enterprise's cards, read-only (the Corporate cards table, =SPEND.CARDS and =SPEND.CARD). */
import { CARD_EXPAND, CARD_MAX_PAGE_SIZE, getCard, listCards, listCardsAsGot, type Card } from "../../api";
import { fullName, idOf, type Column } from "../columns";
import { readingOrder } from "./tracking";
import { pairedRecord, pairedSource, type ResourceModule } from "./resource";
import type { z } from "zod";
import { declare, paramsSchema } from "./params";

/** A cards query's parameters: what to show beside each card. */
const CARD_PARAMS = declare([
  {
    name: "expand", wire: "expand", type: "expand", values: CARD_EXPAND, label: "Show beside the ids",
    display: { bank: "Bank", user: "Card holder" },
    form: { control: "expand" }, spend: { arg: "expand", help: 'Optional: user, bank, or "user,bank" to show the card holder and the bank.' },
  },
]);

export const CardParams = paramsSchema("cards", CARD_PARAMS);
type CardParams = z.output<typeof CardParams>;

/**
 * Identity (with the holder's name, expanded), Sync status, then the rest.
 * @internal column-order and spill tests read every resource's columns with and without expand.
 */
export function cardColumns(expand: ReadonlySet<string>): Column<Card>[] {
  const identity: Column<Card>[] = [
    { key: "id", header: "Card ID", kind: "id", value: (c) => c.id },
    { key: "last_four_digits", header: "Last four digits", kind: "id", value: (c) => c.last_four_digits },
  ];
  if (expand.has("user")) identity.push({ key: "user_name", header: "Card holder", kind: "text", value: (c) => fullName(c.user) });
  const rest: Column<Card>[] = [];
  if (expand.has("user")) rest.push({ key: "user_email", header: "Card holder email", kind: "text", value: (c) => c.user?.email });
  // The holder's id stays in its own column, for lookups, whether the name is shown or not.
  rest.push({ key: "user_id", header: "Card holder ID", kind: "id", value: (c) => idOf(c.user_id, c.user) });
  if (expand.has("bank")) rest.push({ key: "bank_name", header: "Bank", kind: "text", value: (c) => c.bank?.name });
  rest.push(
    { key: "bank_id", header: "Bank ID", kind: "id", value: (c) => idOf(c.bank_id, c.bank) },
    { key: "national_balance_currency", header: "National currency", kind: "text", value: (c) => c.national_balance_currency },
    { key: "international_balance_currency", header: "International currency", kind: "text", value: (c) => c.international_balance_currency },
    { key: "billing_day", header: "Billing day", kind: "integer", value: (c) => c.billing_day },
    { key: "billing_mode", header: "Billing mode", kind: "text", value: (c) => c.billing_mode },
  );
  return readingOrder(identity, [], rest);
}

export const cards = {
  scopeName: () => ["SpendCards", "Corporate cards"],
  params: CARD_PARAMS,
  source: (p) => pairedSource(cardColumns(new Set(p.expand)), (c, o) => listCards(c, { expand: p.expand }, o)),
  label: "Corporate cards",
  functionName: "CARDS",
  record: pairedRecord({
    kind: "card",
    columns: () => cardColumns(new Set()),
    get: (client, ref, options) => getCard(client, ref.id, {}, options),
    pages: (client, _scope, options) => listCardsAsGot(client, {}, options),
    pageSize: CARD_MAX_PAGE_SIZE,
    numberKey: "last_four_digits",
    label: "Card",
  }),
} satisfies ResourceModule<CardParams>;
