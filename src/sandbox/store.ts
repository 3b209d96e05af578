/** The sandbox's in-memory state: indexed records and the one place where state changes happen. */
import {
  checkTransition, formatTimestamp, type StatePatch, type TrackedResource, type Verdict,
} from "../domain";
import type {
  AllowanceRec, BankRec, BillingPeriodRec, CardRec, EnterpriseRec, ExpenseRec, FareRec, FundRec, MovementRec,
  NamedRec, PersonRec, SandboxData, SubsidiaryRec, TransitionRec,
} from "./model";

/** Writes a PATCH's fields onto a record; also used to replay the change log. */
export function applyChange(record: AllowanceRec | ExpenseRec, set: Extract<StoreChange, { kind: "patch" }>["set"]): void {
  Object.assign(record, set);
}

type ById<T> = Map<string, T>;

function byId<T extends { id: string }>(items: T[]): ById<T> {
  return new Map(items.map((item) => [item.id, item]));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * A PATCH that passed the rules. `saved` resolves once the change is durable (at once without
 * `--data`); the route answers only then, so an acknowledged change survives a kill -9.
 */
export type PatchOutcome<T> = { ok: true; record: T; saved: Promise<void> } | { ok: false; message: string };

/** What changed, in a form the change log can write and replay onto a loaded snapshot. */
export type StoreChange =
  | {
      kind: "patch";
      resource: TrackedResource;
      id: string;
      set: { state: string; updated_at: string; accounted_id?: string; paid_id?: string; paid_at?: string };
      transition: TransitionRec;
    }
  | { kind: "insert"; expense: ExpenseRec };

/** Returns (or resolves) once the change is saved; may reject when it could not be. */
export type ChangeListener = (change: StoreChange) => Promise<void> | void;

export class Store {
  private readonly enterprisesByKey: Map<string, EnterpriseRec>;
  private readonly enterprises: ById<EnterpriseRec>;
  private readonly subsidiaries: ById<SubsidiaryRec>;
  private readonly people: ById<PersonRec>;
  private readonly banks: ById<BankRec>;
  private readonly costCenters: ById<NamedRec>;
  private readonly categories: ById<NamedRec>;
  private readonly funds: ById<FundRec>;
  private readonly fares: ById<FareRec>;
  private readonly cards: ById<CardRec>;
  private readonly periods: ById<BillingPeriodRec>;
  private readonly expensesById: ById<ExpenseRec>;
  private readonly allowancesById: ById<AllowanceRec>;
  private readonly movementsById: ById<MovementRec>;
  private readonly cardsByEnterprise: Map<string, CardRec[]>;
  private readonly movementsByPeriod: Map<string, MovementRec[]>;
  private readonly allowancesBySubsidiary: Map<string, AllowanceRec[]>;
  private readonly expensesBySubsidiary: Map<string, ExpenseRec[]>;
  private readonly listeners: ChangeListener[] = [];

  constructor(readonly data: SandboxData) {
    this.enterprisesByKey = new Map(data.enterprises.map((e) => [e.api_key, e]));
    this.enterprises = byId(data.enterprises);
    this.subsidiaries = byId(data.subsidiaries);
    this.people = byId(data.people);
    this.banks = byId(data.banks);
    this.costCenters = byId(data.cost_centers);
    this.categories = byId(data.categories);
    this.funds = byId(data.funds);
    this.fares = byId(data.fares);
    this.cards = byId(data.cards);
    this.periods = byId(data.billing_periods);
    this.expensesById = byId(data.expenses);
    this.allowancesById = byId(data.allowances);
    this.movementsById = byId(data.movements);
    // Documented orders (docs/sandbox.md), stable across pages.
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    // Cards keep the order in which they were issued.
    this.cardsByEnterprise = groupBy(data.cards, (c) => c.enterprise_id);
    this.movementsByPeriod = groupBy(data.movements, (m) => m.billing_period_id);
    for (const list of this.movementsByPeriod.values()) {
      list.sort((a, b) => cmp(a.transaction_date, b.transaction_date) || cmp(a.id, b.id));
    }
    this.allowancesBySubsidiary = groupBy(data.allowances, (a) => a.subsidiary_id);
    for (const list of this.allowancesBySubsidiary.values()) list.sort((a, b) => a.allowance_number - b.allowance_number);
    this.expensesBySubsidiary = groupBy(data.expenses, (e) => e.subsidiary_id);
    for (const list of this.expensesBySubsidiary.values()) list.sort((a, b) => a.expense_number - b.expense_number);
  }

  /** Called after every state change (persistence hooks in here). */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  private emit(change: StoreChange): Promise<void> {
    return Promise.all(this.listeners.map((listener) => listener(change))).then(() => undefined);
  }

  enterpriseByKey(key: string): EnterpriseRec | undefined {
    return this.enterprisesByKey.get(key);
  }

  enterprise(id: string): EnterpriseRec | undefined {
    return this.enterprises.get(id);
  }

  subsidiary(enterpriseId: string, id: string): SubsidiaryRec | undefined {
    const sub = this.subsidiaries.get(id);
    return sub && sub.enterprise_id === enterpriseId ? sub : undefined;
  }

  subsidiariesOf(enterpriseId: string): SubsidiaryRec[] {
    return this.data.subsidiaries.filter((s) => s.enterprise_id === enterpriseId);
  }

  card(enterpriseId: string, id: string): CardRec | undefined {
    const card = this.cards.get(id);
    return card && card.enterprise_id === enterpriseId ? card : undefined;
  }

  cardsOf(enterpriseId: string): CardRec[] {
    return this.cardsByEnterprise.get(enterpriseId) ?? [];
  }

  billingPeriod(cardId: string, id: string): BillingPeriodRec | undefined {
    const period = this.periods.get(id);
    return period && period.card_id === cardId ? period : undefined;
  }

  billingPeriodsOf(cardId: string): BillingPeriodRec[] {
    return this.data.billing_periods.filter((p) => p.card_id === cardId);
  }

  movementsOf(periodId: string): MovementRec[] {
    return this.movementsByPeriod.get(periodId) ?? [];
  }

  movement(periodId: string, id: string): MovementRec | undefined {
    const movement = this.movementsById.get(id);
    return movement && movement.billing_period_id === periodId ? movement : undefined;
  }

  allowancesOf(subsidiaryId: string): AllowanceRec[] {
    return this.allowancesBySubsidiary.get(subsidiaryId) ?? [];
  }

  allowance(subsidiaryId: string, id: string): AllowanceRec | undefined {
    const allowance = this.allowancesById.get(id);
    return allowance && allowance.subsidiary_id === subsidiaryId ? allowance : undefined;
  }

  expensesOf(subsidiaryId: string): ExpenseRec[] {
    return this.expensesBySubsidiary.get(subsidiaryId) ?? [];
  }

  expense(subsidiaryId: string, id: string): ExpenseRec | undefined {
    const expense = this.expensesById.get(id);
    return expense && expense.subsidiary_id === subsidiaryId ? expense : undefined;
  }

  expenseById(id: string): ExpenseRec | undefined {
    return this.expensesById.get(id);
  }

  person(id: string): PersonRec | undefined {
    return this.people.get(id);
  }

  bank(id: string): BankRec | undefined {
    return this.banks.get(id);
  }

  costCenter(id: string): NamedRec | undefined {
    return this.costCenters.get(id);
  }

  category(id: string): NamedRec | undefined {
    return this.categories.get(id);
  }

  fund(id: string): FundRec | undefined {
    return this.funds.get(id);
  }

  fare(id: string): FareRec | undefined {
    return this.fares.get(id);
  }

  /**
   * Adds a record as if someone created it in the service (no API creates records; tests and demos use
   * this to show a refresh picking up new records).
   */
  insertExpense(record: ExpenseRec): Promise<void> {
    this.data.expenses.push(record);
    this.expensesById.set(record.id, record);
    const list = this.expensesBySubsidiary.get(record.subsidiary_id) ?? [];
    list.push(record);
    list.sort((a, b) => a.expense_number - b.expense_number);
    this.expensesBySubsidiary.set(record.subsidiary_id, list);
    return this.emit({ kind: "insert", expense: record });
  }

  /** Every applied transition of one record, oldest first. */
  transitionsOf(id: string): TransitionRec[] {
    return this.data.transitions.filter((t) => t.id === id);
  }

  /**
   * Checks and applies a state change in one synchronous step, so concurrent requests cannot both pass
   * the check: of many identical PATCHes, exactly one succeeds.
   */
  applyPatch<T extends AllowanceRec | ExpenseRec>(resource: TrackedResource, record: T, patch: StatePatch): PatchOutcome<T> {
    const verdict: Verdict = checkTransition(resource, record.state, patch);
    if (!verdict.ok) return verdict;
    const from = record.state;
    const now = formatTimestamp(Date.now());
    const fields: Record<string, string> = {};
    for (const field of ["accounted_id", "paid_id", "paid_at"] as const) {
      const value = patch[field];
      if (value !== undefined) fields[field] = value;
    }
    const set = { state: patch.state, updated_at: now, ...fields };
    const transition: TransitionRec = { at: now, resource, id: record.id, from, to: patch.state, fields };
    applyChange(record, set);
    this.data.transitions.push(transition);
    const saved = this.emit({ kind: "patch", resource, id: record.id, set, transition });
    saved.catch(() => undefined); // the route reports it; never an unhandled rejection
    return { ok: true, record, saved };
  }
}
