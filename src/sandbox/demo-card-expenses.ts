/**
 * The expenses of the card-close demo: filed by a cardholder (or a colleague) for a merchant, with the fields
 * the service's own demo expenses have. Merchants carry the text a bank statement shows for them, which
 * shares a word with the provider an expense names, or none (AWS), as statements do.
 */
import { formatTimestamp } from "../domain";
import { DECIMALS, PER_USD, round } from "./demo-money";
import { DAY, isoDate, type DemoRun } from "./demo-run";
import { TAX_RATES } from "./demo-tables";
import type { ExpenseRec, NamedRec, SubsidiaryRec } from "./model";

export interface Merchant {
  provider: string;
  /** What the card statement says. */
  statement: string;
  item: string;
  /** Index into CATEGORIES (demo-tables.ts). */
  category: number;
  /** Smallest and largest purchase in US dollars. */
  usd: [number, number];
}

export const LOCAL_MERCHANTS: Merchant[] = [
  { provider: "Starbucks", statement: "STARBUCKS COSTANERA", item: "Coffee with supplier", category: 0, usd: [4, 25] },
  { provider: "Copec", statement: "COPEC APP 4471", item: "Fuel for company car", category: 4, usd: [30, 90] },
  { provider: "Uber", statement: "UBER *TRIP HELP.UBER", item: "Ride to client office", category: 3, usd: [5, 40] },
  { provider: "Cabify", statement: "CABIFY SANTIAGO", item: "Taxi to airport", category: 3, usd: [8, 45] },
  { provider: "LATAM Airlines", statement: "LATAM AIRLINES LA0457", item: "Flight SCL-LIM", category: 1, usd: [120, 600] },
  { provider: "Sodimac", statement: "SODIMAC HOMECENTER", item: "Printer paper and toner", category: 6, usd: [15, 160] },
  { provider: "Amazon Web Services", statement: "AWS EMEA", item: "Cloud hosting", category: 5, usd: [40, 400] },
  { provider: "EFE Trenes", statement: "EFE TRENES DE CHILE", item: "Train ticket", category: 3, usd: [6, 30] },
];

/** Restaurants: where a tip lands on the card above the receipt. */
export const RESTAURANTS: Merchant[] = [
  { provider: "Restaurant Liguria", statement: "LIGURIA PROVIDENCIA", item: "Lunch with client", category: 0, usd: [30, 180] },
  { provider: "Juan Maestro", statement: "JUAN MAESTRO MALL", item: "Team dinner", category: 0, usd: [20, 120] },
];

/** Hotels: a stay and its restaurant bill, filed apart, charged as one. */
export const HOTELS: Merchant[] = [
  { provider: "Hotel Plaza San Francisco", statement: "HOTEL PLAZA SAN FRANCISCO", item: "Hotel, 2 nights", category: 2, usd: [150, 420] },
  { provider: "NH Collection", statement: "NH COLLECTION PLAZA", item: "Hotel, 1 night", category: 2, usd: [90, 220] },
];

/** Bought abroad, in another currency: the card converts at its own rate. */
export const FOREIGN_MERCHANTS: Merchant[] = [
  { provider: "Hilton Garden Inn", statement: "HILTON GARDEN INN MIAMI", item: "Hotel, 1 night", category: 2, usd: [120, 300] },
  { provider: "Iberia", statement: "IBERIA.COM MADRID", item: "Flight SCL-MAD", category: 1, usd: [300, 900] },
  { provider: "Atlassian", statement: "ATLASSIAN SYDNEY", item: "Monthly SaaS subscription", category: 5, usd: [10, 120] },
];

/** Installment purchases (cuotas): a large purchase paid over months. */
export const INSTALLMENT_MERCHANTS: Merchant[] = [
  { provider: "Office Depot", statement: "OFFICE DEPOT CUOTAS", item: "Ergonomic chair", category: 6, usd: [300, 900] },
  { provider: "Lider", statement: "LIDER.CL CUOTAS", item: "Notebooks", category: 6, usd: [200, 700] },
];

/** What the card-close expenses are filed under: the subsidiary and its enterprise's cost centers and categories. */
export interface ExpensePlace {
  sub: SubsidiaryRec;
  costCenters: NamedRec[];
  categories: NamedRec[];
  /** The next expense number of the enterprise. */
  nextNumber(): number;
}

/** A purchase amount at `merchant` in `currency`, to its decimals. */
export function purchaseIn(run: DemoRun, merchant: Merchant, currency: string): number {
  const [low, high] = merchant.usd;
  return round((low + run.rng.next() * (high - low)) * PER_USD[currency], DECIMALS[currency]);
}

/** An expense `userId` filed for `amount` `currency` at `merchant` on `dateMs`. */
export function cardExpense(run: DemoRun, place: ExpensePlace, userId: string, merchant: Merchant,
  money: { amount: number; currency: string }, dateMs: number, paymentMethod = "corporate_card"): ExpenseRec {
  const rng = run.rng;
  const { sub } = place;
  const { amount, currency } = money;
  const taxRate = TAX_RATES[currency] ?? 0;
  const net = round(amount / (1 + taxRate / 100), DECIMALS[currency]);
  const state = rng.weighted({ pending: 20, approved: 45, accounted: 20, paid: 15 });
  const createdMs = dateMs + rng.int(0, 4) * DAY + rng.int(8 * 3600, 20 * 3600) * 1000;
  const id = rng.uuid();
  const number = place.nextNumber();
  const accounted = state === "accounted" || state === "paid";
  return {
    id, subsidiary_id: sub.id, description: merchant.item, expense_type: "regular", currency, amount,
    usd_amount: round(amount / PER_USD[currency], 2), state, date: isoDate(dateMs), expense_number: number,
    content_type: "image/jpeg", cost_center_id: rng.pick(place.costCenters).id, category_id: place.categories[merchant.category].id,
    user_id: userId, fund_id: null, is_active: true, created_at: formatTimestamp(createdMs),
    updated_at: formatTimestamp(createdMs + DAY), url: `https://files.spend-sandbox.example/receipts/${id}.jpg`,
    document_id: `B-${rng.int(100000, 999999)}`, expense_document_type: "receipt", provider: merchant.provider,
    payment_method: paymentMethod, net_amount: net, tax_amount: round(amount - net, DECIMALS[currency]), tax_rate: taxRate,
    subsidiary_currency: sub.currency,
    // The service's own conversion: the card's differs from it by up to a few percent (foreign purchases).
    subsidiary_expense_amount: round((amount / PER_USD[currency]) * PER_USD[sub.currency], DECIMALS[sub.currency]),
    accounted_id: accounted ? `ACC-2026-${String(number).padStart(6, "0")}` : null,
    paid_id: state === "paid" ? `PAY-${rng.int(100000, 999999)}` : null,
    paid_at: state === "paid" ? formatTimestamp(createdMs + rng.int(5, 20) * DAY) : null,
    approver_ids: state === "pending" ? [] : [userId], fare_id: null,
    additional_questions: [{ question: "Were clients present?", answer: rng.pick(["Yes", "No"]) }],
  };
}
