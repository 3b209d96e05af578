/**
 * What a table holds is checked before the service or Excel is asked anything: each resource's scope ids are
 * required and not empty, its filters take only their values, and what is left out takes its default (no
 * expand; movements with their reconciliation). A refresh reads them back from the workbook through the same check.
 */
import { LoadParams } from "../../src/sheets";
import { isTracked } from "../support/declarations";

const CARDS = { resource: "cards", enterpriseId: "ent-1" };
const MOVEMENTS = { resource: "movements", enterpriseId: "ent-1", cardId: "card-1", billingPeriodId: "bp-1" };
const ALLOWANCES = { resource: "allowances", enterpriseId: "ent-1", subsidiaryId: "sub-1" };
const EXPENSES = { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-1" };

/** Where the check refuses an input: the paths of its issues. */
const refusedAt = (input: unknown) => {
  const parsed = LoadParams.safeParse(input);
  return parsed.success ? null : parsed.error.issues.map((i) => i.path.join("."));
};

it("each resource with only its scope takes its defaults: no expand, and movements with their reconciliation", () => {
  expect(LoadParams.parse(CARDS)).toEqual({ ...CARDS, expand: [] });
  expect(LoadParams.parse(MOVEMENTS)).toEqual({ ...MOVEMENTS, reconciliation: true });
  expect(LoadParams.parse(ALLOWANCES)).toEqual({ ...ALLOWANCES, expand: [] });
  expect(LoadParams.parse(EXPENSES)).toEqual({ ...EXPENSES, expand: [] });
});

it("every filter and expand each resource takes is kept as given", () => {
  const all = [
    { ...CARDS, expand: ["bank", "user"] },
    { ...MOVEMENTS, type: "associated_fee", reconciled: false, reconciliation: false },
    { ...ALLOWANCES, state: "rejected", expand: ["beneficiary", "allowance_segments", "documents"] },
    { ...EXPENSES, state: "draft", createdFrom: "2026-01-01", createdTo: "2026-02-01", expand: ["cost_center", "category", "user", "approved_by", "fund", "fare"] },
  ];
  for (const input of all) expect(LoadParams.parse(input)).toEqual(input);
});

it.each<[string, unknown, string[]]>([
  ["no resource", { enterpriseId: "ent-1" }, ["resource"]],
  ["a resource the service does not have", { ...CARDS, resource: "invoices" }, ["resource"]],
  ["cards of an empty enterprise", { ...CARDS, enterpriseId: "" }, ["enterpriseId"]],
  ["cards of no enterprise", { resource: "cards" }, ["enterpriseId"]],
  ["cards with an expand they do not have", { ...CARDS, expand: ["fund"] }, ["expand.0"]],
  ["movements of an empty card", { ...MOVEMENTS, cardId: "" }, ["cardId"]],
  ["movements of no billing period", { ...MOVEMENTS, billingPeriodId: undefined }, ["billingPeriodId"]],
  ["movements of an empty billing period", { ...MOVEMENTS, billingPeriodId: "" }, ["billingPeriodId"]],
  ["movements of an empty enterprise", { ...MOVEMENTS, enterpriseId: "" }, ["enterpriseId"]],
  ["movements of a type the service does not have", { ...MOVEMENTS, type: "refund" }, ["type"]],
  ["movements reconciled written as text", { ...MOVEMENTS, reconciled: "yes" }, ["reconciled"]],
  ["movements with their reconciliation written as text", { ...MOVEMENTS, reconciliation: "no" }, ["reconciliation"]],
  ["allowances of an empty subsidiary", { ...ALLOWANCES, subsidiaryId: "" }, ["subsidiaryId"]],
  ["allowances of no subsidiary", { resource: "allowances", enterpriseId: "ent-1" }, ["subsidiaryId"]],
  ["allowances in a state they never have", { ...ALLOWANCES, state: "draft" }, ["state"]],
  ["allowances with an expense's expand", { ...ALLOWANCES, expand: ["fare"] }, ["expand.0"]],
  ["allowances of an empty enterprise", { ...ALLOWANCES, enterpriseId: "" }, ["enterpriseId"]],
  ["expenses of an empty subsidiary", { ...EXPENSES, subsidiaryId: "" }, ["subsidiaryId"]],
  ["expenses in a state they never have", { ...EXPENSES, state: "settled" }, ["state"]],
  ["expenses created from a number", { ...EXPENSES, createdFrom: 20260101 }, ["createdFrom"]],
  ["expenses created up to a number", { ...EXPENSES, createdTo: 20260201 }, ["createdTo"]],
  ["expenses with an allowance's expand", { ...EXPENSES, expand: ["documents"] }, ["expand.0"]],
  ["expenses of an empty enterprise", { ...EXPENSES, enterpriseId: "" }, ["enterpriseId"]],
])("refuses %s, naming the field", (_, input, paths) => {
  expect(refusedAt(input)).toEqual(paths);
});

it("only allowances and expenses are synced", () => {
  expect((["cards", "movements", "allowances", "expenses"] as const).map(isTracked)).toEqual([false, false, true, true]);
});
