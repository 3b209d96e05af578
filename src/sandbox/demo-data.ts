/**
 * Realistic, reproducible demo data. Ids, amounts and states depend only on the seed and the scale;
 * dates are laid out over the months before the anchor date.
 */
import { formatTimestamp } from "../domain";
import type {
  AllowanceRec,
  BillingPeriodRec,
  CardRec,
  EnterpriseRec,
  ExpenseRec,
  FareRec,
  FundRec,
  Money,
  MovementRec,
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
}

const DAY = 86_400_000;
/** Units of each currency per US dollar (not round, so that COP and KWD amounts use their decimals). */
const PER_USD: Record<string, number> = { CLP: 950, USD: 1, EUR: 0.925, PEN: 3.75, COP: 3950.45, KWD: 0.3071 };
/**
 * An amount in US dollars at the demo's fixed rates. The reconciliation object of spec 2.4 types
 * usd_amount as money (never null), so a reconciled expense without one of its own is converted.
 */
export function usdAt(amount: number, currency: string): number {
  return round(amount / (PER_USD[currency] ?? 1), 2);
}
/**
 * ISO 4217 minor units, written out here rather than read from the add-in's source of them, so that the add-in's
 * tests compare two independent readings of the list: COP has 2 (its cash has none), KWD 3.
 */
const DECIMALS: Record<string, number> = { CLP: 0, USD: 2, EUR: 2, PEN: 2, COP: 2, KWD: 3 };
/** Sales tax by currency of the expense (Kuwait has none). */
const TAX_RATES: Record<string, number> = { CLP: 19, EUR: 21, PEN: 18, COP: 19 };

const FIRST_NAMES = ["Camila", "Matías", "Valentina", "Benjamín", "Sofía", "Tomás", "Isidora", "Joaquín", "Antonia",
  "Lucas", "Martina", "Diego", "Emily", "James", "Olivia", "Noah", "Lucía", "Mateo", "Florencia", "Sebastián"];
const LAST_NAMES = ["González", "Muñoz", "Rojas", "Díaz", "Pérez", "Soto", "Contreras", "Silva", "Martínez",
  "Sepúlveda", "Morales", "Rodríguez", "Smith", "Johnson", "Fuentes", "Castillo", "Araya", "Espinoza"];
const COST_CENTERS = ["Sales", "Marketing", "Operations", "Finance", "IT", "Human Resources", "Logistics", "Legal"];
const CATEGORIES: { name: string; items: string[]; providers: string[] }[] = [
  { name: "Meals", items: ["Lunch with client", "Team dinner", "Breakfast meeting", "Coffee with supplier"],
    providers: ["Starbucks", "Café Haití", "Restaurant Liguria", "Juan Maestro"] },
  { name: "Air travel", items: ["Flight SCL-LIM", "Flight SCL-MAD", "Flight SCL-PMC", "Flight change fee"],
    providers: ["LATAM Airlines", "Sky Airline", "Iberia", "JetSMART"] },
  { name: "Lodging", items: ["Hotel, 2 nights", "Hotel, 1 night", "Apartment rental for project week"],
    providers: ["Hotel Plaza San Francisco", "Hilton Garden Inn", "NH Collection", "Airbnb"] },
  { name: "Ground transport", items: ["Taxi to airport", "Ride to client office", "Train ticket"],
    providers: ["Uber", "Cabify", "EFE Trenes", "Taxi Oficial"] },
  { name: "Fuel", items: ["Fuel for company car", "Fuel, site visit"], providers: ["Copec", "Shell", "Petrobras"] },
  { name: "Software", items: ["Monthly SaaS subscription", "Annual license", "Cloud hosting"],
    providers: ["Amazon Web Services", "Atlassian", "Microsoft", "Google Workspace"] },
  { name: "Office supplies", items: ["Printer paper and toner", "Ergonomic chair", "Notebooks"],
    providers: ["Sodimac", "Lider", "Office Depot", "Librería Nacional"] },
  { name: "Mileage", items: ["Mileage to client site", "Mileage, warehouse inspection"], providers: ["Own vehicle"] },
];
/**
 * Descriptions that a spreadsheet would turn into formulas if written naively. They sit at fixed places
 * in the first subsidiary so that injection tests always meet them (docs/sandbox.md).
 */
export const HOSTILE_DESCRIPTIONS = [
  '=HYPERLINK("http://x","y")',
  "-5+3",
  "+56 2 2345 6789 phone reimbursement",
  "@home office chair",
  "\tTabbed note from import",
];

/** Expense states, weighted for a realistic mix; the first records cycle through all of them. */
const EXPENSE_STATE_WEIGHTS = { draft: 5, pending: 15, approved: 35, accounted: 15, paid: 20, rejected: 10 };
const ALLOWANCE_STATE_WEIGHTS = { pending: 15, approved: 35, accounted: 20, paid: 20, rejected: 10 };

interface EnterprisePlan {
  name: string;
  domain: string;
  additionalFiles: boolean;
  subsidiaries: { name: string; currency: string; expenses: number; allowances: number }[];
  /** One entry per card: the index of the subsidiary whose currency it is in and whose expenses it pays. */
  cards: number[];
}

const PLANS: EnterprisePlan[] = [
  {
    name: "Andes Logistics SpA",
    domain: "andeslogistics.example",
    additionalFiles: true,
    subsidiaries: [
      { name: "Andes Logistics Chile", currency: "CLP", expenses: 300, allowances: 180 },
      { name: "Andes Logistics USA", currency: "USD", expenses: 90, allowances: 50 },
      { name: "Andes Logistics España", currency: "EUR", expenses: 60, allowances: 30 },
      // Currencies whose ISO decimals differ from what a browser's Intl says (COP) or from two (KWD).
      { name: "Andes Logistics Colombia", currency: "COP", expenses: 60, allowances: 30 },
      { name: "Andes Logistics Kuwait", currency: "KWD", expenses: 40, allowances: 20 },
    ],
    cards: [0, 0, 0, 0, 3, 4],
  },
  {
    name: "Pacific Foods Ltd",
    domain: "pacificfoods.example",
    additionalFiles: false,
    subsidiaries: [{ name: "Pacific Foods Perú", currency: "PEN", expenses: 80, allowances: 40 }],
    cards: [0, 0],
  },
];

/** Builds the whole demo data set. */
export function generateDemoData(options: DemoOptions): SandboxData {
  return new Generator(options).build();
}

class Generator {
  private readonly rng: Random;
  private readonly anchorMs: number;
  private readonly data: SandboxData;

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
    return this.data;
  }

  private count(base: number): number {
    return Math.max(1, Math.round(base * this.options.scale));
  }

  private banks(): void {
    for (const [name, country, swift] of [
      ["Banco de Chile", "CL", "BCHICLRM"], ["Banco Santander Chile", "CL", "BSCHCLRM"],
      ["BBVA España", "ES", "BBVAESMM"], ["Interbank", "PE", "BINPPEPL"],
    ]) {
      this.data.banks.push({ id: this.rng.uuid(), name, country, swift_code: swift });
    }
  }

  private fares(): void {
    const fares: [string, FareRec["kind"], Money][] = [
      ["Domestic per diem", "per_diem", { amount: 45000, currency: "CLP" }],
      ["International per diem", "per_diem", { amount: 120, currency: "USD" }],
      ["Lodging allowance", "per_diem", { amount: 90, currency: "USD" }],
      ["Mileage, standard car", "mileage", { amount: 250, currency: "CLP" }],
    ];
    for (const [name, kind, rate] of fares) this.data.fares.push({ id: this.rng.uuid(), name, kind, rate });
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
    plan.cards.forEach((of, c) => this.card(ent.id, people, subs[of].currency, enterpriseExpenses[of], c));
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

  private money(currency: string, usd: number): number {
    return round(usd * PER_USD[currency], DECIMALS[currency]);
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
    const amount = this.money(currency, usd);
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
      const amount = round(this.money(currency, fare.rate.amount / PER_USD[fare.rate.currency]) * segDays, DECIMALS[currency]);
      segments.push({
        id: rng.uuid(), start_date: formatTimestamp(segStart), end_date: formatTimestamp(segStart + segDays * DAY),
        fare_id: fare.id, fare_name: fare.name, days: segDays, amount: { amount, currency },
        converted_amount: { amount: this.convert(amount, currency, sub.currency), currency: sub.currency },
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
      converted_amount: this.convert(total, currency, sub.currency),
      ...tracking(rng, state, createdMs, number),
      created_at: formatTimestamp(createdMs), updated_at: formatTimestamp(createdMs + DAY),
      is_active: state !== "rejected",
      allowance_segments: segments,
      documents: Array.from({ length: rng.int(0, 2) }, (_, d) => ({
        id: rng.uuid(), name: d === 0 ? "travel-request.pdf" : "boarding-pass.pdf", content_type: "application/pdf",
      })),
    };
  }

  private convert(amount: number, from: string, to: string): number {
    return round((amount / PER_USD[from]) * PER_USD[to], DECIMALS[to]);
  }

  private card(enterpriseId: string, people: PersonRec[], currency: string, expenses: ExpenseRec[], index: number): void {
    const rng = this.rng;
    const card: CardRec = {
      id: rng.uuid(), enterprise_id: enterpriseId, user_id: rng.pick(people).id,
      last_four_digits: String(rng.int(0, 9999)).padStart(4, "0"), bank_id: rng.pick(this.data.banks).id,
      national_balance_currency: currency, international_balance_currency: "USD",
      billing_day: [5, 15, 25, 28][index % 4], billing_mode: index === 3 ? "manual" : "bank_movements",
    };
    this.data.cards.push(card);
    const anchor = new Date(this.anchorMs);
    // A card movement settles in a known currency, so only expenses with a USD amount are reconciled.
    const linkable = expenses.filter((e) => e.payment_method === "corporate_card" && e.usd_amount !== null);
    for (let k = 0; k < 3; k++) {
      const endMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - k, card.billing_day);
      const startMs = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - k - 1, card.billing_day + 1);
      const period: BillingPeriodRec = { id: rng.uuid(), card_id: card.id, start_date: isoDate(startMs), end_date: isoDate(endMs) };
      this.data.billing_periods.push(period);
      const n = this.count(index === 0 && k === 0 ? 140 : 30);
      for (let m = 0; m < n; m++) {
        this.data.movements.push(this.movement(card, period, startMs, endMs, m, linkable));
      }
    }
  }

  private movement(card: CardRec, period: BillingPeriodRec, startMs: number, endMs: number, m: number,
    linkable: ExpenseRec[]): MovementRec {
    const rng = this.rng;
    const type: MovementRec["type"] =
      m < 4 ? (["expense", "payment", "associated_fee", "other_fee"] as const)[m]
        : rng.weighted({ expense: 70, payment: 8, associated_fee: 12, other_fee: 10 });
    const currency = card.national_balance_currency;
    const dateMs = startMs + rng.int(0, Math.max(0, Math.round((endMs - startMs) / DAY))) * DAY;
    let amount: Money = { amount: this.money(currency, 10 + rng.next() * 200), currency };
    let foreign: Money | null = null;
    let description = "";
    let reconciliation: MovementRec["reconciliation"] = null;
    let installments = 1;
    if (type === "expense") {
      const reconciled = (m === 0 || m >= 4) && linkable.length > 0 && (m === 0 || rng.chance(0.55));
      if (reconciled) {
        const expense = linkable[rng.int(0, linkable.length - 1)];
        reconciliation = { id: rng.uuid(), expense_id: expense.id };
        amount = { amount: this.convert(expense.amount, expense.currency, currency), currency };
        if (expense.currency !== currency) foreign = { amount: expense.amount, currency: expense.currency };
        description = expense.provider.toUpperCase();
      } else {
        description = rng.pick(["AMAZON MKTPLACE", "UBER *TRIP", "COPEC APP", "LATAM.COM", "STARBUCKS", "NETFLIX.COM"]);
        if (rng.chance(0.2)) {
          foreign = { amount: round(10 + rng.next() * 150, 2), currency: "USD" };
          amount = { amount: this.convert(foreign.amount, "USD", currency), currency };
        }
      }
      installments = rng.chance(0.15) ? rng.pick([3, 6, 12]) : 1;
    } else if (type === "payment") {
      description = "PAYMENT - THANK YOU";
      amount = { amount: this.money(currency, 500 + rng.next() * 3000), currency };
    } else if (type === "associated_fee") {
      description = rng.pick(["INTEREST CHARGE", "STAMP TAX", "ANNUAL CARD FEE"]);
    } else {
      description = rng.pick(["FOREIGN TRANSACTION FEE", "LATE PAYMENT FEE", "CASH ADVANCE FEE"]);
      amount = { amount: this.money(currency, 1 + rng.next() * 30), currency };
    }
    return {
      id: rng.uuid(), card_id: card.id, billing_period_id: period.id, amount, description,
      transaction_date: isoDate(dateMs), is_deposit: type === "payment", type,
      current_installment: installments === 1 ? 1 : rng.int(1, installments), total_installments: installments,
      reference_code: `${rng.int(10, 99)}${rng.hex(10).toUpperCase()}`, foreign_amount: foreign,
      is_debt_transfer: type === "payment" && rng.chance(0.1), reconciliation,
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

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
