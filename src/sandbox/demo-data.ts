/**
 * Realistic, reproducible demo data. Ids, amounts and states depend only on the seed and the scale;
 * dates are laid out over the months before the anchor date. The tables it draws from are in
 * demo-tables.ts, amounts in demo-money.ts, the cards and their movements in demo-cards.ts.
 */
import { formatTimestamp } from "../domain";
import { addCard } from "./demo-cards";
import { addCloseCards, type CardCloseOptions } from "./demo-card-close";
import { amountIn, convert, DECIMALS, PER_USD, round } from "./demo-money";
import { DAY, isoDate, type DemoRun } from "./demo-run";
import {
  ALLOWANCE_STATE_WEIGHTS, BANKS, CATEGORIES, COST_CENTERS, EXPENSE_STATE_WEIGHTS, FARES, FIRST_NAMES, HOSTILE_DESCRIPTIONS,
  LAST_NAMES, PLANS, TAX_RATES, type EnterprisePlan,
} from "./demo-tables";
import type {
  AllowanceRec,
  EnterpriseRec,
  ExpenseRec,
  FundRec,
  NamedRec,
  PersonRec,
  SandboxData,
  SubsidiaryRec,
} from "./model";
import { Random } from "./random";

export interface DemoOptions {
  seed: number;
  /** Multiplies the record counts (the benchmarks use tens of thousands of expenses). */
  scale: number;
  /** YYYY-MM-DD; the data spans the months before it. */
  anchor: string;
  /** Adds the card-close cards (demo-card-close.ts); the rest of the data is the same with or without. */
  cardClose?: CardCloseOptions;
}

/** Builds the whole demo data set. */
export function generateDemoData(options: DemoOptions): SandboxData {
  return new Generator(options).build();
}

class Generator implements DemoRun {
  readonly rng: Random;
  readonly anchorMs: number;
  readonly data: SandboxData;

  constructor(private readonly options: DemoOptions) {
    this.rng = new Random(options.seed, "demo-data");
    this.anchorMs = Date.parse(`${options.anchor}T00:00:00Z`);
    this.data = {
      version: 1, seed: options.seed, scale: options.scale, anchor: options.anchor,
      enterprises: [], subsidiaries: [], people: [], banks: [], cost_centers: [], categories: [], funds: [],
      fares: [], cards: [], billing_periods: [], movements: [], allowances: [], expenses: [], transitions: [],
    };
  }

  build(): SandboxData {
    this.banks();
    this.fares();
    for (const plan of PLANS) this.enterprise(plan);
    if (this.options.cardClose) addCloseCards(this, this.options.cardClose);
    return this.data;
  }

  count(base: number): number {
    return Math.max(1, Math.round(base * this.options.scale));
  }

  private banks(): void {
    for (const [name, country, swift] of BANKS) this.data.banks.push({ id: this.rng.uuid(), name, country, swift_code: swift });
  }

  private fares(): void {
    for (const [name, kind, rate] of FARES) this.data.fares.push({ id: this.rng.uuid(), name, kind, rate: { ...rate } });
  }

  private enterprise(plan: EnterprisePlan): void {
    const ent: EnterpriseRec = {
      id: this.rng.uuid(), name: plan.name, api_key: `sk_sandbox_${this.rng.hex(32)}`,
      additional_files_enabled: plan.additionalFiles,
    };
    this.data.enterprises.push(ent);
    const people = Array.from({ length: 40 }, (_, i) => this.person(ent.id, plan.domain, i));
    this.data.people.push(...people);
    const costCenters = COST_CENTERS.map((name, i) => this.named(ent.id, name, `CC-${100 + i * 10}`));
    const categories = CATEGORIES.map((c, i) => this.named(ent.id, c.name, `CAT-${String(i + 1).padStart(2, "0")}`));
    this.data.cost_centers.push(...costCenters);
    this.data.categories.push(...categories);
    const funds: FundRec[] = ["Travel fund 2026", "Project Atacama", "Marketing events", "Petty cash"].map(
      (description, i) => ({ id: this.rng.uuid(), enterprise_id: ent.id, fund_number: 501 + i, description,
        status: i === 3 ? "closed" : "open" }),
    );
    this.data.funds.push(...funds);
    const ctx = { ent, people, costCenters, categories, funds };
    let expenseNumber = 1001;
    let allowanceNumber = 1;
    const enterpriseExpenses: ExpenseRec[][] = [];
    const subs: SubsidiaryRec[] = [];
    plan.subsidiaries.forEach((s, index) => {
      const sub: SubsidiaryRec = { id: this.rng.uuid(), enterprise_id: ent.id, name: s.name, currency: s.currency };
      this.data.subsidiaries.push(sub);
      subs.push(sub);
      const expenses: ExpenseRec[] = [];
      for (let i = 0; i < this.count(s.expenses); i++) {
        expenses.push(this.expense(ctx, sub, i, expenseNumber++, index === 0));
      }
      enterpriseExpenses.push(expenses);
      this.data.expenses.push(...expenses);
      for (let i = 0; i < this.count(s.allowances); i++) {
        this.data.allowances.push(this.allowance(ctx, sub, i, allowanceNumber++, index === 0));
      }
    });
    plan.cards.forEach((of, c) => addCard(this, ent.id, people, subs[of].currency, enterpriseExpenses[of], c));
  }

  private person(enterpriseId: string, domain: string, i: number): PersonRec {
    const first = this.rng.pick(FIRST_NAMES);
    const last = this.rng.pick(LAST_NAMES);
    const ascii = (s: string) => s.normalize("NFD").replace(/[^a-zA-Z]/g, "").toLowerCase();
    return {
      id: this.rng.uuid(), enterprise_id: enterpriseId, first_name: first, last_name: last,
      email: `${ascii(first)}.${ascii(last)}${i}@${domain}`,
      phone: `+56 9 ${this.rng.int(1000, 9999)} ${this.rng.int(1000, 9999)}`,
      internal_id: `EMP-${String(1000 + i)}`,
      government_id: `${this.rng.int(10, 25)}.${this.rng.int(100, 999)}.${this.rng.int(100, 999)}-${this.rng.int(0, 9)}`,
    };
  }

  private named(enterpriseId: string, name: string, internalId: string): NamedRec {
    return { id: this.rng.uuid(), enterprise_id: enterpriseId, name, internal_id: internalId };
  }

  private daysAgo(maxDays: number): number {
    return this.anchorMs - this.rng.int(1, maxDays) * DAY;
  }

  private expense(ctx: EnterpriseContext, sub: SubsidiaryRec, i: number, number: number, first: boolean): ExpenseRec {
    const rng = this.rng;
    const catIndex = rng.int(0, CATEGORIES.length - 1);
    const cat = CATEGORIES[catIndex];
    const mileage = cat.name === "Mileage";
    const currency = rng.chance(0.75) ? sub.currency : rng.pick(["USD", "EUR"].filter((c) => c !== sub.currency));
    const usd = round(5 + rng.next() ** 2 * 600, 2);
    const amount = amountIn(currency, usd);
    const taxRate = TAX_RATES[currency] ?? 0;
    const net = round(amount / (1 + taxRate / 100), DECIMALS[currency]);
    const state = i < 12 ? Object.keys(EXPENSE_STATE_WEIGHTS)[i % 6] : rng.weighted(EXPENSE_STATE_WEIGHTS);
    const dateMs = this.daysAgo(180);
    const createdMs = dateMs + rng.int(0, 4) * DAY + rng.int(8 * 3600, 20 * 3600) * 1000;
    const id = rng.uuid();
    const description =
      first && i >= 3 && i < 3 + HOSTILE_DESCRIPTIONS.length ? HOSTILE_DESCRIPTIONS[i - 3] : rng.pick(cat.items);
    const pdf = rng.chance(0.6);
    const tracked = tracking(rng, state, createdMs, number);
    return {
      id, subsidiary_id: sub.id, description, expense_type: mileage ? "mileage" : "regular", currency, amount,
      usd_amount: state === "draft" && rng.chance(0.5) ? null : round(amount / PER_USD[currency], 2), state,
      date: isoDate(dateMs), expense_number: number, content_type: pdf ? "application/pdf" : "image/jpeg",
      cost_center_id: rng.pick(ctx.costCenters).id, category_id: ctx.categories[catIndex].id,
      user_id: rng.pick(ctx.people).id, fund_id: rng.chance(0.3) ? rng.pick(ctx.funds).id : null,
      is_active: state !== "rejected", created_at: formatTimestamp(createdMs),
      updated_at: formatTimestamp(createdMs + DAY),
      url: `https://files.spend-sandbox.example/receipts/${id}.${pdf ? "pdf" : "jpg"}`,
      document_id: pdf ? `F-${rng.int(10000, 99999)}` : `B-${rng.int(100000, 999999)}`,
      expense_document_type: pdf ? "invoice" : "receipt", provider: rng.pick(cat.providers),
      payment_method: mileage ? "reimbursement" : rng.weighted({ corporate_card: 55, personal_card: 25, cash: 15, transfer: 5 }),
      net_amount: net, tax_amount: round(amount - net, DECIMALS[currency]), tax_rate: taxRate,
      subsidiary_currency: sub.currency,
      subsidiary_expense_amount: round((amount / PER_USD[currency]) * PER_USD[sub.currency], DECIMALS[sub.currency]),
      ...tracked,
      approver_ids: ["draft", "pending"].includes(state) ? [] : [rng.pick(ctx.people).id],
      fare_id: mileage ? this.data.fares[3].id : null,
      additional_questions: [
        { question: "Project code", answer: rng.pick(["ATA-2026", "OPS-114", "MKT-330", "N/A"]) },
        { question: "Were clients present?", answer: rng.pick(["Yes", "No"]) },
      ],
    };
  }

  private allowance(ctx: EnterpriseContext, sub: SubsidiaryRec, i: number, number: number, first: boolean): AllowanceRec {
    const rng = this.rng;
    const international = rng.chance(0.3);
    const currency = international ? "USD" : sub.currency;
    const startMs = this.daysAgo(170);
    const segments = [];
    let days = 0;
    let total = 0;
    for (let s = 0; s < rng.int(1, 2); s++) {
      const fare = this.data.fares[international ? 1 + s : 0];
      const segDays = rng.int(1, 4);
      const segStart = startMs + days * DAY;
      const amount = round(amountIn(currency, fare.rate.amount / PER_USD[fare.rate.currency]) * segDays, DECIMALS[currency]);
      segments.push({
        id: rng.uuid(), start_date: formatTimestamp(segStart), end_date: formatTimestamp(segStart + segDays * DAY),
        fare_id: fare.id, fare_name: fare.name, days: segDays, amount: { amount, currency },
        converted_amount: { amount: convert(amount, currency, sub.currency), currency: sub.currency },
      });
      days += segDays;
      total += amount;
    }
    const state = i < 10 ? Object.keys(ALLOWANCE_STATE_WEIGHTS)[i % 5] : rng.weighted(ALLOWANCE_STATE_WEIGHTS);
    const createdMs = startMs - rng.int(2, 10) * DAY + rng.int(8 * 3600, 19 * 3600) * 1000;
    const city = rng.pick(["Lima", "Antofagasta", "Madrid", "Buenos Aires", "Concepción", "São Paulo", "Miami"]);
    const description =
      first && (i === 2 || i === 3) ? HOSTILE_DESCRIPTIONS[i - 2] : `Per diem, ${city}: ${rng.pick(["client visit", "site inspection", "training", "trade fair", "audit"])}`;
    return {
      id: rng.uuid(), subsidiary_id: sub.id, allowance_number: number, description, state,
      beneficiary_id: rng.pick(ctx.people).id, cost_center_id: rng.pick(ctx.costCenters).id,
      start_date: formatTimestamp(startMs), end_date: formatTimestamp(startMs + days * DAY), days,
      amount: { amount: round(total, DECIMALS[currency]), currency }, currency,
      converted_amount: convert(total, currency, sub.currency),
      ...tracking(rng, state, createdMs, number),
      created_at: formatTimestamp(createdMs), updated_at: formatTimestamp(createdMs + DAY),
      is_active: state !== "rejected",
      allowance_segments: segments,
      documents: Array.from({ length: rng.int(0, 2) }, (_, d) => ({
        id: rng.uuid(), name: d === 0 ? "travel-request.pdf" : "boarding-pass.pdf", content_type: "application/pdf",
      })),
    };
  }

}

interface EnterpriseContext {
  ent: EnterpriseRec;
  people: PersonRec[];
  costCenters: NamedRec[];
  categories: NamedRec[];
  funds: FundRec[];
}

/** accounted_id / paid_id / paid_at consistent with the record's state. */
function tracking(rng: Random, state: string, createdMs: number, number: number) {
  const accounted = state === "accounted" || state === "paid";
  return {
    accounted_id: accounted ? `ACC-${2026}-${String(number).padStart(6, "0")}` : null,
    paid_id: state === "paid" ? `PAY-${rng.int(100000, 999999)}` : null,
    paid_at: state === "paid" ? formatTimestamp(createdMs + rng.int(5, 20) * DAY + rng.int(9, 18) * 3_600_000) : null,
  };
}
