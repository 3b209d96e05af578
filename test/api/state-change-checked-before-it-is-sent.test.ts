// Rule: a state change the service would refuse is refused before anything is sent, in the service's own words (an
// InvalidRequestError): a state that is not one of the API's, and paid_id or paid_at sent with state 'accounted'.
import { InvalidRequestError, SpendClient, updateAllowance, updateExpense, type StatePatch } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";

function client() {
  const fake = fakeTransport(() => ({ body: {} }));
  return { c: new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_state_patch", transport: fake.transport }), fake };
}

it.each<[string, StatePatch, string]>([
  ["a state the API does not have", { state: "frozen" } as unknown as StatePatch, `state must be 'accounted' or 'paid'; got "frozen".`],
  ["paid_id with state 'accounted'", { state: "accounted", accounted_id: "A-1", paid_id: "P-1" }, "paid_id and paid_at must not be sent when state is 'accounted'."],
  ["paid_at with state 'accounted'", { state: "accounted", accounted_id: "A-1", paid_at: "2026-03-01T10:00:00Z" }, "paid_id and paid_at must not be sent when state is 'accounted'."],
])("%s", async (_what, patch, message) => {
  const { c, fake } = client();
  for (const send of [() => updateExpense(c, "s1", "e1", patch), () => updateAllowance(c, "s1", "a1", patch)]) {
    const error = await send().then((): never => { throw new Error("no error"); }, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.message).toBe(message);
  }
  expect(fake.requests).toHaveLength(0);
});
