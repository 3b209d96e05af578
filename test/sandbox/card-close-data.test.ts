/**
 * `--card-close`: cards whose movements come from their holders' own card expenses, with every pattern that
 * makes a card close hard, and the true partners kept in the data file, never in an answer.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemoData } from "../../src/sandbox/demo-data";
import type { SandboxData } from "../../src/sandbox/model";
import { decimalsOf, minorUnits } from "../../src/sheets";
import { closeCards } from "../support/card-close-truth";
import { ANCHOR, withSandbox } from "../support/sandbox";

const options = { seed: 1, scale: 1, anchor: ANCHOR };
const data = generateDemoData({ ...options, cardClose: { movements: 150 } });
const truth = data.card_close_truth!;
const expenses = new Map(data.expenses.map((e) => [e.id, e]));
const movements = new Map(data.movements.map((m) => [m.id, m]));

describe("card-close demo data", () => {
  it("leaves every record of the demo data as it is without the flag, and only adds", () => {
    const plain = generateDemoData(options);
    expect(plain.card_close_truth).toBeUndefined();
    for (const key of ["enterprises", "people", "subsidiaries", "cards", "billing_periods", "movements", "expenses", "allowances"] as const) {
      expect(data[key].slice(0, plain[key].length)).toEqual(plain[key]);
    }
    expect(data.cards.length).toBe(plain.cards.length + 2);
    expect(data.movements.length - plain.movements.length).toBe(truth.links.length);
  });

  it("has every hard pattern, each as its name says", () => {
    const of = (pattern: string) => truth.links.filter((l) => l.pattern === pattern).map((l) => ({ l, m: movements.get(l.movement_id)!, es: l.expense_ids.map((id) => expenses.get(id)!) }));
    const dayGap = (a: string, b: string) => (Date.parse(a) - Date.parse(b)) / 86_400_000;
    const plain = of("plain");
    expect(plain.length).toBeGreaterThan(30);
    const gaps = new Set(plain.map(({ m, es }) => dayGap(m.transaction_date, es[0].date)));
    expect(Math.min(...gaps)).toBe(0);
    expect(Math.max(...gaps)).toBe(7);
    for (const { m, es } of of("foreign")) {
      expect(m.foreign_amount).toEqual({ amount: es[0].amount, currency: es[0].currency });
      expect(es[0].currency).not.toBe(m.amount.currency);
      expect(Math.abs(m.amount.amount / es[0].subsidiary_expense_amount - 1)).toBeLessThanOrEqual(0.031);
    }
    expect(of("foreign").some(({ m, es }) => Math.abs(m.amount.amount / es[0].subsidiary_expense_amount - 1) > 0.01)).toBe(true);
    for (const { m, es } of of("tip")) expect(m.amount.amount).toBeGreaterThan(es[0].amount);
    const twins = of("twin");
    expect(twins.length % 2).toBe(0);
    expect(twins.length).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < twins.length; i += 2) expect(twins[i + 1].m.amount).toEqual(twins[i].m.amount);
    for (const { m, es } of of("split")) {
      expect(es.length).toBe(2);
      expect(m.amount.amount).toBe(es[0].amount + es[1].amount);
    }
    for (const { m, es } of of("refund")) expect([m.is_deposit, m.type, m.amount.amount]).toEqual([true, "expense", es[0].amount]);
    expect(of("fee").map(({ m }) => m.type).sort()).toEqual(expect.arrayContaining(["associated_fee", "other_fee"]));
    for (const { m, es } of of("installment")) {
      expect(m.total_installments).toBeGreaterThan(1);
      expect(m.amount.amount * m.total_installments).toBe(es[0].amount);
    }
    expect(of("unfiled").length).toBeGreaterThan(0);
    for (const { m, es } of of("service")) expect(m.reconciliation?.expense_id).toBe(es[0].id);
    expect(truth.never_posted.length).toBeGreaterThan(0);
    const linked = new Set(truth.links.flatMap((l) => l.expense_ids));
    expect(truth.never_posted.filter((id) => linked.has(id))).toEqual([]);
  });

  it("draws each card's movements from its own holder's card expenses, amounts in their currency's decimals", () => {
    const cards = new Map(data.cards.map((c) => [c.id, c]));
    for (const l of truth.links) {
      const m = movements.get(l.movement_id)!;
      expect(decimalsOf(m.amount.amount)).toBeLessThanOrEqual(minorUnits(m.amount.currency)!);
      for (const id of l.expense_ids) {
        expect(expenses.get(id)!.user_id).toBe(cards.get(m.card_id)!.user_id);
        expect(expenses.get(id)!.payment_method).toBe("corporate_card");
      }
    }
    expect(closeCards(data)).toHaveLength(2);
  });
});

describe("the hidden truth", () => {
  it("is in the sandbox's data file, and in no answer of any list the close reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "card-close-"));
    const f = await withSandbox({ cardClose: { movements: 150 }, dataFile: join(dir, "sandbox.json") });
    try {
      const stored = JSON.parse(readFileSync(join(dir, "sandbox.json"), "utf8")) as SandboxData;
      const served = stored.card_close_truth!;
      expect(served.links.length).toBe(truth.links.length);
      const texts: string[] = [];
      const walk = async (path: string, key = f.enterprise.api_key) => {
        for (let url: string | null = path; url; ) {
          const res = await f.call("GET", url, { key });
          expect(res.status).toBe(200);
          texts.push(res.text);
          url = res.json.next;
        }
      };
      await walk(`${f.prefix}/corporate-cards/?expand=user,bank&page_size=100`);
      for (const card of f.enterprise.cards) {
        for (const p of card.billing_periods) await walk(`${f.prefix}/corporate-cards/${card.id}/billing-periods/${p}/movements/?expand=renconciliation&page_size=100`);
      }
      for (const sub of f.enterprise.subsidiaries) await walk(`${f.prefix}/subsidiaries/${sub}/expenses/?expand=cost_center,category,user,approved_by,fund,fare&page_size=1000`);
      const all = texts.join("\n");
      expect(all).toContain(served.links[0].movement_id); // the walk did reach the close cards
      for (const word of ["card_close_truth", "never_posted", "expense_ids", "\"pattern\""]) expect(all).not.toContain(word);
      // A movement's answer names an expense only through the service's own reconciliation.
      const answers = new Map<string, string>();
      for (const t of texts) for (const r of JSON.parse(t).results as { id: string }[]) answers.set(r.id, JSON.stringify(r));
      const hidden = served.links.filter((l) => l.pattern !== "service" && l.expense_ids.length > 0);
      expect(hidden.length).toBeGreaterThan(80);
      for (const l of hidden) for (const id of l.expense_ids) expect(answers.get(l.movement_id)).not.toContain(id);
    } finally {
      await f.sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
