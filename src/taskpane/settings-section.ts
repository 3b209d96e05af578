/** The taskpane's Formulas settings: how long the =SPEND.* functions keep their results. */
import type { Session } from "../api";
import { field, h } from "./dom";

/** A folded section with the cache minutes, saved by the Session as they change. */
export function settingsSection(session: Session): HTMLElement {
  const cacheMinutes = h("input", { id: "cache-minutes", type: "number", min: 0, step: 1, value: session.cacheMinutes });
  cacheMinutes.addEventListener("change", () => session.setCacheMinutes(Number(cacheMinutes.value)));
  return h("details", { className: "section" }, h("summary", {}, "Formulas (=SPEND.*)"),
    field("Keep formula results for (minutes)", cacheMinutes, "Refresh data on the ribbon clears them and recalculates."));
}
