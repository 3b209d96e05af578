/**
 * The tables the demo data is drawn from: the two enterprises and their subsidiaries, names, cost centers,
 * expense categories with their items and providers, banks, fares, tax rates and the mix of states.
 */
import type { FareRec, Money } from "./model";

/** Sales tax by currency of the expense (Kuwait has none). */
export const TAX_RATES: Record<string, number> = { CLP: 19, EUR: 21, PEN: 18, COP: 19 };

export const FIRST_NAMES = ["Camila", "Matías", "Valentina", "Benjamín", "Sofía", "Tomás", "Isidora", "Joaquín", "Antonia",
  "Lucas", "Martina", "Diego", "Emily", "James", "Olivia", "Noah", "Lucía", "Mateo", "Florencia", "Sebastián"];
export const LAST_NAMES = ["González", "Muñoz", "Rojas", "Díaz", "Pérez", "Soto", "Contreras", "Silva", "Martínez",
  "Sepúlveda", "Morales", "Rodríguez", "Smith", "Johnson", "Fuentes", "Castillo", "Araya", "Espinoza"];
export const COST_CENTERS = ["Sales", "Marketing", "Operations", "Finance", "IT", "Human Resources", "Logistics", "Legal"];
export const CATEGORIES: { name: string; items: string[]; providers: string[] }[] = [
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
export const EXPENSE_STATE_WEIGHTS = { draft: 5, pending: 15, approved: 35, accounted: 15, paid: 20, rejected: 10 };
export const ALLOWANCE_STATE_WEIGHTS = { pending: 15, approved: 35, accounted: 20, paid: 20, rejected: 10 };

/** Name, country and SWIFT code of each bank a card can be of. */
export const BANKS: [string, string, string][] = [
  ["Banco de Chile", "CL", "BCHICLRM"], ["Banco Santander Chile", "CL", "BSCHCLRM"],
  ["BBVA España", "ES", "BBVAESMM"], ["Interbank", "PE", "BINPPEPL"],
];

/** Name, kind and rate of each fare; allowances use the per diems, mileage expenses the fourth. */
export const FARES: [string, FareRec["kind"], Money][] = [
  ["Domestic per diem", "per_diem", { amount: 45000, currency: "CLP" }],
  ["International per diem", "per_diem", { amount: 120, currency: "USD" }],
  ["Lodging allowance", "per_diem", { amount: 90, currency: "USD" }],
  ["Mileage, standard car", "mileage", { amount: 250, currency: "CLP" }],
];

export interface EnterprisePlan {
  name: string;
  domain: string;
  additionalFiles: boolean;
  subsidiaries: { name: string; currency: string; expenses: number; allowances: number }[];
  /** One entry per card: the index of the subsidiary whose currency it is in and whose expenses it pays. */
  cards: number[];
}

export const PLANS: EnterprisePlan[] = [
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
