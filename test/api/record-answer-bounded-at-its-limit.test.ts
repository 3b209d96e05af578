// Rule: an answer holding one record may hold MAX_VALUES_PER_RECORD + 64 values (counted as 1, plus 1 per object or
// array, plus 1 per comma): exactly that many is read, one more is refused unread.
import { AnswerTooLargeError, MAX_VALUES_PER_RECORD, SpendClient, getCard } from "../../src/api";
import { card, fakeTransport } from "../support/fake-transport";

const budget = MAX_VALUES_PER_RECORD + 64;
// No string of card() holds a comma or a bracket.
const valuesOf = (text: string) => 1 + [...text].filter((c) => c === "," || c === "{" || c === "[").length;
const answer = (zeros: number) => JSON.stringify({ ...card("c1"), status: 200, notes: new Array(zeros).fill(0) });

function holding(values: number): string {
  let zeros = 1;
  while (valuesOf(answer(zeros)) < values) zeros++;
  expect(valuesOf(answer(zeros))).toBe(values);
  return answer(zeros);
}

function client(text: string) {
  const fake = fakeTransport(() => ({ text }));
  return new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_record_budget", transport: fake.transport });
}

it("exactly that many: read", async () => {
  expect(await getCard(client(holding(budget)), "c1")).toMatchObject(card("c1"));
});

it("one more: refused unread", async () => {
  const error = await getCard(client(holding(budget + 1)), "c1").then((): never => { throw new Error("no error"); }, (e: unknown) => e as Error);
  expect(error).toBeInstanceOf(AnswerTooLargeError);
  expect(error.message).toBe("The service's answer for corporate card holds more than 2,112 values, more than a record needs: it was refused without being read.");
});
