/**
 * Ids a host offers the Load section's pickers beside those used before (issue 43): the workbench hands over the
 * sandbox's demo subsidiaries, cards and billing periods by name, so that a first load needs no UUID pasted from
 * the terminal. The service has no list of subsidiaries nor of a card's billing periods (DESIGN.md), so nothing
 * else could name them. Excel's taskpane is given none: this module only shapes what a host gives.
 */
import type { ComboOption } from "./combobox";

interface Named {
  id: string;
  name: string;
}

/** What a host offers, per enterprise, and the words the pickers show beside each ("demo data"). */
export interface OfferedIds {
  source: string;
  enterprises: readonly { id: string; subsidiaries: readonly Named[]; cards: readonly (Named & { billing_periods: readonly Named[] })[] }[];
}

const option = (source: string) => (n: Named): ComboOption => ({ value: n.id, label: n.name, source });

/** The pickers' options from what is offered for the connected enterprise (none for another enterprise). */
export function offeredOptions(offered: OfferedIds | null, enterpriseId: string): {
  subsidiaries: ComboOption[];
  cards: ComboOption[];
  periodsOf(cardId: string): ComboOption[];
} {
  const enterprise = offered?.enterprises.find((e) => e.id === enterpriseId);
  const as = option(offered?.source ?? "");
  return {
    subsidiaries: enterprise?.subsidiaries.map(as) ?? [],
    cards: enterprise?.cards.map(as) ?? [],
    periodsOf: (cardId) => enterprise?.cards.find((c) => c.id === cardId)?.billing_periods.map(as) ?? [],
  };
}
