// Rule: an answer that is not JSON is named for what it is (an HTML page, even after blank lines; empty, even when it
// holds only white space; otherwise not valid JSON) and quoted by its first 60 characters, white space trimmed.
import { SchemaError, SpendClient, getCard } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";

async function answerMessage(text: string): Promise<string> {
  const fake = fakeTransport(() => ({ text }));
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_not_json", transport: fake.transport });
  const error = await getCard(c, "c1").then((): never => { throw new Error("no error"); }, (e: unknown) => e as Error);
  expect(error).toBeInstanceOf(SchemaError);
  return error.message;
}

it("an HTML page after blank lines", async () => {
  const page = "<!DOCTYPE html><html><head><title>Sign in to continue</title></head><body>Sign in</body></html>";
  expect(await answerMessage(`\r\n\n  ${page}`)).toBe(
    `The service's answer for corporate card was an HTML page, not JSON: ${JSON.stringify(page.slice(0, 60))}. Is the base URL the service's?`,
  );
});

it("white space only", async () => {
  expect(await answerMessage(" \n\t ")).toBe(`The service's answer for corporate card was empty: "". Is the base URL the service's?`);
});

it("text cut short", async () => {
  const text = '{"id":"c1","user_id":"u1","last_four_digits":"1234","bank_id":"b1","national_balance_currency":"CL';
  expect(await answerMessage(text)).toBe(
    `The service's answer for corporate card was not valid JSON (cut short?): ${JSON.stringify(text.slice(0, 60))}. Is the base URL the service's?`,
  );
});
