/** The workbench's Excel menu: which named Excel the page is (fake-excel/profiles.ts); picking one reloads the page as it. */
import { h } from "../taskpane/dom";
import { PROFILES, type ProfileId } from "./fake-excel/profiles";

export function mountProfileMenu(select: HTMLSelectElement, current: ProfileId): void {
  select.replaceChildren(...PROFILES.map((p) => h("option", { value: p.id, selected: p.id === current }, p.name)));
  select.addEventListener("change", () => {
    const url = new URL(location.href);
    url.searchParams.set("excel", select.value);
    location.assign(url.toString());
  });
}
