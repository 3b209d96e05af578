// Rule: a movement read with its reconciliation carries the reconciled expense's cost center as the service sent it (id and name).
import { SchemaError, SpendClient, getMovement, listMovements } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";
import { U } from "./helpers/records";

const money = (amount: number) => ({ amount, currency: "CLP" });
const SCOPE = { cardId: U(1), billingPeriodId: U(2) };

function reconciled(costCenter: unknown): Record<string, unknown> {
  return {
    id: U(10), amount: money(5), description: "Fee", transaction_date: "2026-03-04", is_deposit: false, type: "expense",
    current_installment: 1, total_installments: 1, reference_code: "R1", foreign_amount: null, is_debt_transfer: false,
    reconciliation: {
      id: U(11),
      expense: {
        id: U(12), description: "Taxi", expense_number: 7, date: "2026-03-04T09:00:00Z", amount: money(5), usd_amount: null,
        cost_center: costCenter, state: "approved",
      },
    },
  };
}

function client(body: Record<string, unknown>) {
  const fake = fakeTransport(() => ({ body }));
  return new SpendClient({ baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_cost_center", transport: fake.transport });
}

it("a listed movement's reconciled expense keeps its cost center's id and name", async () => {
  const c = client({ count: 1, next: null, previous: null, results: [reconciled({ id: U(20), name: "Sales travel" })] });
  const [movement] = await listMovements(c, SCOPE, { reconciliation: true }).all();
  expect(movement.reconciliation?.expense.cost_center).toEqual({ id: U(20), name: "Sales travel" });
});

it("one movement read alone keeps it too", async () => {
  const c = client({ ...reconciled({ id: U(21), name: "Marketing" }), status: 200, error: "" });
  const movement = await getMovement(c, SCOPE, U(10), { reconciliation: true });
  expect(movement.reconciliation?.expense.cost_center).toEqual({ id: U(21), name: "Marketing" });
});

it("a cost center without a name does not match the API", async () => {
  const c = client({ ...reconciled({ id: U(22) }), status: 200, error: "" });
  const error = await getMovement(c, SCOPE, U(10), { reconciliation: true }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SchemaError);
  expect((error as SchemaError).message).toBe(
    "The service's answer for movement does not match the API: reconciliation.expense.cost_center.name: Invalid input: expected string, received undefined (got nothing (the field is missing)).",
  );
});
