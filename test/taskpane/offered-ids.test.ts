/** The pickers' options from what a host offers (src/taskpane/offered-ids.ts): the connected enterprise's only, each named and sourced. */
import { offeredOptions, type OfferedIds } from "../../src/taskpane/offered-ids";

const OFFERED: OfferedIds = {
  source: "demo data",
  enterprises: [
    { id: "e1", subsidiaries: [{ id: "s1", name: "Chile (CLP)" }], cards: [{ id: "c1", name: "•••• 4242 — Ana", billing_periods: [{ id: "p1", name: "2026-10-06 to 2026-11-05" }] }] },
    { id: "e2", subsidiaries: [{ id: "s2", name: "Other (USD)" }], cards: [{ id: "c2", name: "•••• 1111", billing_periods: [{ id: "p2", name: "x" }] }] },
  ],
};

it("offers the connected enterprise's subsidiaries, cards and a card's billing periods, by name, with their source", () => {
  const options = offeredOptions(OFFERED, "e1");
  expect(options.subsidiaries).toEqual([{ value: "s1", label: "Chile (CLP)", source: "demo data" }]);
  expect(options.cards).toEqual([{ value: "c1", label: "•••• 4242 — Ana", source: "demo data" }]);
  expect(options.periodsOf("c1")).toEqual([{ value: "p1", label: "2026-10-06 to 2026-11-05", source: "demo data" }]);
});

it("offers nothing of another enterprise, of another enterprise's card, or when nothing is offered", () => {
  expect(offeredOptions(OFFERED, "e1").periodsOf("c2")).toEqual([]);
  expect(offeredOptions(OFFERED, "e3")).toMatchObject({ subsidiaries: [], cards: [] });
  expect(offeredOptions(null, "e1")).toMatchObject({ subsidiaries: [], cards: [] });
  expect(offeredOptions(null, "e1").periodsOf("c1")).toEqual([]);
});
