/**
 * Small rules the sender's messages and verdicts rest on, stated on their own: how a quoted message becomes a
 * sentence or a parenthesis (sentences.ts), what a record holds once a PATCH is applied (server-check.ts), and
 * which id texts Preview questions at the edges of each shape (questions.ts).
 */
import { TRACKED_KEYS, type TrackedValues } from "../../src/sheets";
import { expectedAfter, holdsPatch } from "../../src/sync";
import { idQuestion } from "../../src/sync/questions";
import { asSentence, inParentheses } from "../../src/sync/sentences";

describe("a quoted message in a sentence", () => {
  it("asSentence adds a full stop only where the text has no end of its own", () => {
    expect(["Timed out", "Timed out.", "Really?", "Stop!", "3.5 s"].map(asSentence)).toEqual(["Timed out.", "Timed out.", "Really?", "Stop!", "3.5 s."]);
  });

  it("inParentheses drops the final full stop only, never one inside", () => {
    expect(inParentheses("No answer within 2.5 s.")).toBe("(No answer within 2.5 s)");
    expect(inParentheses("v1.2 refused")).toBe("(v1.2 refused)");
    expect(inParentheses("")).toBe("()");
  });
});

describe("what a record holds once a PATCH is applied", () => {
  const accounted: TrackedValues = { state: "accounted", accounted_id: "ACC-1", paid_id: "", paid_at: "" };

  it("keeps every field the PATCH does not send", () => {
    expect(expectedAfter(accounted, { state: "paid", paid_id: "PAY-1" })).toEqual({ state: "paid", accounted_id: "ACC-1", paid_id: "PAY-1", paid_at: "" });
    expect(holdsPatch({ state: "paid", accounted_id: "ACC-1", paid_id: "PAY-1", paid_at: "" }, accounted, { state: "paid", paid_id: "PAY-1" })).toBe(true);
    expect(holdsPatch({ state: "paid", accounted_id: "", paid_id: "PAY-1", paid_at: "" }, accounted, { state: "paid", paid_id: "PAY-1" })).toBe(false);
  });

  it("writes what it sends as the sheet shows it (paid_at in UTC, seconds)", () => {
    const after = expectedAfter(accounted, { state: "paid", paid_at: "2026-11-24T10:00:00-03:00" });
    expect(after.paid_at).toBe("2026-11-24T13:00:00Z");
    expect(TRACKED_KEYS.map((k) => after[k])).toEqual(["paid", "ACC-1", "", "2026-11-24T13:00:00Z"]);
  });
});

describe("ids at the edges of each shape Preview questions", () => {
  it.each([
    ["2026-11-24 10:00:00.123", "date"], // a fraction of more than one digit
    ["12,345", "amount"], // two digits before the first group
    ["$ 1.250,00", "amount"], ["€ 12,50", "amount"], ["+1.250,00", "amount"], ["-€ 1.250", "amount"],
  ])("%s is questioned as a %s", (text, kind) => {
    expect(idQuestion("paid_id", text)).toBe(kind === "date"
      ? `Paid ID "${text}" looks like a date: did you mean it for Paid at?`
      : `Paid ID "${text}" looks like an amount, not the id of an entry or a payment.`);
  });

  it.each(["ACC1.250,00", "A1.250,00", "REF12,5", "ACC$1250", "1234,567.00", "$12a"])("%s, an id with more around the shape, is not", (text) => {
    expect(idQuestion("accounted_id", text)).toBeNull();
  });

  it("names the field asked about", () => {
    expect(idQuestion("accounted_id", "24/11/2026")).toBe('Accounted ID "24/11/2026" looks like a date: did you mean it for Paid at?');
  });
});
