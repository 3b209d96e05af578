// Rule: the note on a malformed record's row names the field, quotes the value that came and says what the API expects there.
import { SpendClient, describeIssue, listExpenses, type MalformedRecord } from "../../src/api";
import { fakeTransport } from "../support/fake-transport";
import { expense } from "./helpers/records";

it("a record whose created_at is no real date is noted as the field, the value as sent and the expected form", async () => {
  const fake = fakeTransport(() => ({
    body: { count: 2, next: null, previous: null, results: [expense(1), expense(2, { created_at: "2026-13-45T00:00:00Z" })] },
  }));
  const client = new SpendClient({ baseUrl: "https://spend.example/api", enterpriseId: "ent-1", apiKey: "sk_test_malformed_note", transport: fake.transport });
  const kept: MalformedRecord[] = [];
  for await (const page of listExpenses(client, "s1", {}, { keepMalformed: true }).pages()) kept.push(...page.malformed);
  expect(kept).toHaveLength(1);
  expect(kept[0].issues.map(describeIssue)).toEqual([
    'created_at "2026-13-45T00:00:00Z" (expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z)',
  ]);
});
