/**
 * Every value a resource declares for a list or an expand (params.ts) has a name a person reads, so a value
 * added to a declaration (or to the service's list it takes) cannot reach the taskpane as a service word
 * (issue 43, 4). The value itself is what is sent and what a cell keeps (docs/labels.md).
 */
import { RESOURCE_KINDS } from "../../src/sheets";
import { declaredParams } from "../support/declarations";

const lists = RESOURCE_KINDS.flatMap((kind) => declaredParams(kind).flatMap((p) => (p.type === "choice" || p.type === "expand" ? [[kind, p.name, p] as const] : [])));

it("the declarations hold lists to name (states, movement types, every expand)", () => {
  expect(lists.map(([kind, name]) => `${kind}.${name}`).sort()).toEqual(
    ["allowances.expand", "allowances.state", "cards.expand", "expenses.expand", "expenses.state", "movements.type"]);
});

it.each(lists)("every value of %s's %s has a display name in finance words, and names nothing else", (_kind, _name, p) => {
  expect(Object.keys(p.display).sort()).toEqual([...p.values].sort());
  for (const v of p.values) {
    const text: string = p.display[v];
    expect(text).toMatch(/^[A-Z][a-z]*( [a-z]+)*$/);
  }
  // Two values never read the same: a person could not tell which one a choice sends.
  expect(new Set(Object.values(p.display)).size).toBe(p.values.length);
});
