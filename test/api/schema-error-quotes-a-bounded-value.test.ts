// Rule: a SchemaError quotes the value that came as JSON, whole up to 80 characters, and a longer one cut to its first
// 77 characters and "...", so that a message stays readable whatever the service sent.
import { SchemaError, SpendClient, getCard } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";

async function schemaMessage(billingDay: unknown): Promise<string> {
  const fake = fakeTransport(() => ({ body: { ...card("c1"), billing_day: billingDay } }));
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_bounded_value", transport: fake.transport });
  const error = await getCard(c, "c1").then((): never => { throw new Error("no error"); }, (e: unknown) => e as Error);
  expect(error).toBeInstanceOf(SchemaError);
  return error.message;
}

const said = (got: string) => `The service's answer for corporate card does not match the API: billing_day: Invalid input: expected number, received string (got ${got}).`;

it("a value of 80 characters as JSON is quoted whole", async () => {
  const value = "x".repeat(78);
  expect(await schemaMessage(value)).toBe(said(`"${value}"`));
});

it("one of 81 is cut to its first 77 characters and ...", async () => {
  const value = "0123456789".repeat(7) + "012345678";
  expect(await schemaMessage(value)).toBe(said(`"${value.slice(0, 76)}...`));
});
