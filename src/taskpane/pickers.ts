/**
 * The Load section's id pickers: subsidiary, card and billing period, each a combo box that still takes a
 * typed id. Suggestions: ids used lately on this device (recent-values.ts), ids of the tables this
 * workbook already holds, for cards the service's cards list (holder and last four digits shown), and last
 * what the host offers (the workbench: the sandbox's demo data by name, offered-ids.ts). The spec has no list of
 * subsidiaries nor of a card's billing periods (DESIGN.md), and the Cards table has no billing-period column, so
 * in Excel those come only from what was used before.
 */
import { listCards, type Card, type Session } from "../api";
import { fullName, listLoadedTables, readStoredTable, type LoadParams, type Workbook } from "../sheets";
import { combobox, type ComboOption, type Combobox } from "./combobox";
import { h } from "./dom";
import { explain } from "./messages";
import { offeredOptions, type OfferedIds } from "./offered-ids";
import type { RecentValues } from "./recent-values";

export interface Pickers {
  subsidiary: Combobox;
  card: Combobox;
  period: Combobox;
  /** What the card picker is doing (listing the cards, or why it could not). */
  cardNote: HTMLElement;
  /** Suggestions again from the device and the workbook (after a connect, a load, a change of card). */
  refresh(): Promise<void>;
  /** Fetches the cards list once per connection (when movements are chosen); errors are shown, not thrown. */
  loadCards(): Promise<void>;
  /** A load succeeded with these parameters: its ids become the most recent. */
  remember(params: LoadParams): void;
}

/** How a card is shown: "•••• 4242 — Ana Pérez". */
export function cardLabel(card: Pick<Card, "last_four_digits" | "user">): string {
  const holder = fullName(card.user);
  return `•••• ${card.last_four_digits}${holder ? ` — ${holder}` : ""}`;
}

const RECENT = "used recently";
const IN_WORKBOOK = "in this workbook";

/** Options in order, each value once (the first source wins, a later label fills a missing one). */
function merge(...lists: ComboOption[][]): ComboOption[] {
  const out = new Map<string, ComboOption>();
  for (const option of lists.flat()) {
    const earlier = out.get(option.value);
    if (!earlier) out.set(option.value, option);
    else if (!earlier.label && option.label) out.set(option.value, { ...earlier, label: option.label });
  }
  return [...out.values()];
}

/** What `promise` gave once it settled (null before, or when it failed); `then` runs when it gives something. */
function settled<T>(promise: Promise<T | null> | undefined, then: () => void): () => T | null {
  let value: T | null = null;
  void promise?.then((v) => {
    value = v;
    then();
  }, () => undefined);
  return () => value;
}

/** The pickers; `offered`, when a host gives it, adds its ids once it settles (a failure offers none). */
export function mountPickers(session: Session, workbook: Workbook, recent: RecentValues, offered?: Promise<OfferedIds | null>): Pickers {
  const subsidiary = combobox("subsidiary-id", "subsidiary", "subsidiary UUID: type or pick");
  const card = combobox("card-id", "card", "card UUID: type, or pick by holder or last digits");
  const period = combobox("billing-period-id", "billing period", "billing period UUID: type or pick");
  const cardNote = h("div", { id: "card-note", className: "hint", role: "status" });
  const enterprise = () => session.connection()?.enterpriseId ?? "";
  let cards: { enterpriseId: string; options: ComboOption[] } | null = null;
  let cardsLoading: Promise<void> | null = null;
  const labels = () => new Map((cards?.enterpriseId === enterprise() ? cards.options : []).map((o) => [o.value, o.label ?? ""]));
  const hostIds = settled(offered, () => void refresh());

  async function workbookParams(): Promise<LoadParams[]> {
    const out: LoadParams[] = [];
    for (const name of await listLoadedTables(workbook).catch(() => [])) {
      const stored = await readStoredTable(workbook, name).catch(() => null);
      if (stored && stored.params.enterpriseId === enterprise()) out.push(stored.params);
    }
    return out;
  }

  async function refresh(): Promise<void> {
    const id = enterprise();
    const inWorkbook = await workbookParams();
    const cardLabels = labels();
    subsidiary.setOptions(merge(
      recent.list(id, "subsidiary").map((v) => ({ value: v.value, label: v.label, source: RECENT })),
      inWorkbook.flatMap((p) => ("subsidiaryId" in p ? [{ value: p.subsidiaryId, source: IN_WORKBOOK }] : [])),
      offeredOptions(hostIds(), id).subsidiaries,
    ));
    card.setOptions(merge(
      recent.list(id, "card").map((v) => ({ value: v.value, label: cardLabels.get(v.value) || v.label, source: RECENT })),
      cards?.enterpriseId === id ? cards.options : [],
      offeredOptions(hostIds(), id).cards,
    ));
    refreshPeriods(inWorkbook);
  }

  function refreshPeriods(inWorkbook: LoadParams[]): void {
    const cardId = card.input.value.trim();
    period.setOptions(cardId ? merge(
      recent.list(enterprise(), { periodsOf: cardId }).map((v) => ({ value: v.value, label: v.label, source: RECENT })),
      inWorkbook.flatMap((p) => ("billingPeriodId" in p && p.cardId === cardId ? [{ value: p.billingPeriodId, source: IN_WORKBOOK }] : [])),
      offeredOptions(hostIds(), enterprise()).periodsOf(cardId),
    ) : []);
  }

  async function loadCards(): Promise<void> {
    const id = enterprise();
    if (!id || cards?.enterpriseId === id) return;
    cardsLoading ??= (async () => {
      cardNote.textContent = "Listing the cards…";
      try {
        const list = await listCards(session.currentClient(), { expand: ["user"] }).all();
        cards = { enterpriseId: id, options: list.map((c) => ({ value: c.id, label: cardLabel(c) })) };
        cardNote.textContent = `${list.length} cards: type a holder's name or the last digits, or press Down.`;
        await refresh();
      } catch (error) {
        cardNote.textContent = `The cards could not be listed (${explain(error)}); type the card id.`;
      } finally {
        cardsLoading = null;
      }
    })();
    await cardsLoading;
  }

  card.input.addEventListener("change", () => void workbookParams().then(refreshPeriods));

  return {
    subsidiary, card, period, cardNote, refresh, loadCards,
    remember(params) {
      const id = params.enterpriseId;
      // The ids a query was scoped by, whatever its resource: a subsidiary, or a card and its billing period.
      if ("subsidiaryId" in params) recent.remember(id, "subsidiary", params.subsidiaryId);
      if ("billingPeriodId" in params) {
        recent.remember(id, "card", params.cardId, labels().get(params.cardId));
        recent.remember(id, { periodsOf: params.cardId }, params.billingPeriodId);
      }
    },
  };
}
