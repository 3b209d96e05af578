/**
 * What npm start hands the dev server for the workbench's pickers (tools/demo-ids.ts): every demo enterprise's
 * subsidiaries, cards and billing periods, each by the name a person knows it by, from the real sandbox's
 * manifest; and never an API key, in any field.
 */
import { demoIds } from "../../tools/demo-ids";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
beforeAll(async () => (f = await withSandbox()));
afterAll(() => f.sandbox.close());

it("names every subsidiary (its currency beside it), card (last digits and holder) and billing period (its dates)", () => {
  const ids = demoIds(f.sandbox.manifest());
  const { store } = f.sandbox;
  expect(ids.enterprises.map((e) => e.id)).toEqual(store.data.enterprises.map((e) => e.id));
  const [first] = ids.enterprises;
  expect(first.subsidiaries).toEqual(store.subsidiariesOf(first.id).map((s) => ({ id: s.id, name: `${s.name} (${s.currency})` })));
  expect(first.subsidiaries.length).toBeGreaterThanOrEqual(2);
  const card = store.cardsOf(first.id)[0];
  const holder = store.person(card.user_id)!;
  expect(first.cards[0]).toEqual({
    id: card.id, name: `•••• ${card.last_four_digits} — ${holder.first_name} ${holder.last_name}`,
    billing_periods: store.billingPeriodsOf(card.id).map((p) => ({ id: p.id, name: `${p.start_date} to ${p.end_date}` })),
  });
  expect(ids.enterprises.flatMap((e) => e.cards).length).toBe(store.data.enterprises.flatMap((e) => store.cardsOf(e.id)).length);
});

it("holds no API key: not a field named for one, not any enterprise's key as a value", () => {
  const json = JSON.stringify(demoIds(f.sandbox.manifest()));
  expect(json).not.toMatch(/api_key|apiKey/i);
  for (const e of f.sandbox.store.data.enterprises) expect(json).not.toContain(e.api_key);
});
