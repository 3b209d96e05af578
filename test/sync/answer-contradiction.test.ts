/** What in a PATCH answer contradicts the request (pure): only the id and the fields sent count. */
import { answerContradiction } from "../../src/sync/answer-check";

const answer = (over: Partial<Record<"state" | "accounted_id" | "paid_id" | "paid_at", string>> = {}) =>
  ({ state: "paid", accounted_id: "ACC-OLD", paid_id: "PAY-1", paid_at: "2026-10-20T14:30:00Z", ...over });
const patch = { state: "paid" as const, paid_id: "PAY-1", paid_at: "2026-10-20T14:30:00.000Z" };

it("an answer that echoes what was sent agrees, whatever it says of fields not sent and however it spells the instant", () => {
  expect(answerContradiction("e1", patch, "e1", answer())).toBeNull();
  expect(answerContradiction("e1", patch, "e1", answer({ accounted_id: "" }))).toBeNull();
});

it.each([
  ["another id", "e2", answer(), 'the answer is for record "e2", not this one'],
  ["another state", "e1", answer({ state: "accounted" }), "the answer says State accounted, not what was sent"],
  ["another paid_id", "e1", answer({ paid_id: "PAY-2" }), "the answer says Paid ID PAY-2, not what was sent"],
  ["no paid_id", "e1", answer({ paid_id: "" }), "the answer says Paid ID (empty), not what was sent"],
  ["another instant", "e1", answer({ paid_at: "2026-10-20T14:31:00Z" }), "the answer says Paid at 2026-10-20T14:31:00Z, not what was sent"],
  ["no state", "e1", answer({ state: "" }), "the answer says State (none), not what was sent"],
  // A hostile or broken answer's id is quoted in the journal, cut to its first 64 characters.
  ["an id of 100 characters", "x".repeat(100), answer(), `the answer is for record "${"x".repeat(64)}", not this one`],
  ["two fields wrong", "e1", answer({ state: "approved", paid_id: "X" }), "the answer says State approved, Paid ID X, not what was sent"],
])("an answer with %s contradicts it", (_what, answerId, values, words) => {
  expect(answerContradiction("e1", patch, answerId, values)).toBe(words);
});
