/** Spec 4.1 and 4.2: corporate cards. The card list has no status/error envelope fields. */
import { ENTERPRISE, ok, type SandboxApp } from "../env";
import { notFound } from "../http-errors";
import { LIMITS, paginate, parsePaging } from "../pagination";
import { parseExpand } from "../query";
import type { Store } from "../store";
import { cardView } from "../views";

const EXPAND = ["bank", "user"] as const;

export function cardRoutes(app: SandboxApp, store: Store): void {
  app.get(`${ENTERPRISE}/corporate-cards`, (c) => {
    const url = new URL(c.req.url);
    const expand = parseExpand(c.req.query("expand"), EXPAND);
    const paging = parsePaging(url.searchParams, LIMITS.cards);
    const cards = store.cardsOf(c.get("enterprise").id);
    return c.json(paginate(c.req.url, cards, paging, (card) => cardView(store, card, expand)));
  });

  app.get(`${ENTERPRISE}/corporate-cards/:card_id`, (c) => {
    const expand = parseExpand(c.req.query("expand"), EXPAND);
    const card = store.card(c.get("enterprise").id, c.req.param("card_id"));
    if (!card) throw notFound("Corporate card", c.req.param("card_id"));
    return c.json(ok(cardView(store, card, expand)));
  });
}
