/**
 * The status cell a row gets for each outcome (write-outcomes.ts statusText and OUTCOME_FILLS), stated in full:
 * the label a user reads, the time to the minute in UTC, the transition or the reason, and the colour (green
 * for done, red for refused, amber for what needs a look). Pure.
 */
import { GONE_EDIT_MESSAGE, OUTCOMES, type Outcome, type RowResult } from "../../src/sync";
import { OUTCOME_FILLS, statusText } from "../../src/sync/write-outcomes";

const AT = new Date("2026-11-21T09:05:59.999Z");
const result = (outcome: Outcome, message = "", extra: Partial<RowResult> = {}): RowResult =>
  ({ id: "e1", rows: [0], outcome, message, from: "approved", to: "accounted", at: AT, ...extra });

describe("the status text", () => {
  it.each<[Outcome, string]>([
    ["overwritten", "Changed by someone else 2026-11-21 09:05 UTC: why"],
    ["rejected", "Rejected by the service 2026-11-21 09:05 UTC: why"],
    ["invalid", "Not sent, fix the row 2026-11-21 09:05 UTC: why"],
    ["check", "Not sent, check the row 2026-11-21 09:05 UTC: why"],
    ["conflict", "Conflict, not sent 2026-11-21 09:05 UTC: why"],
    ["not-sent", "Not sent 2026-11-21 09:05 UTC: why"],
    ["unconfirmed", "Unconfirmed 2026-11-21 09:05 UTC: why"],
  ])("%s: its label, the minute in UTC and the reason", (outcome, text) => {
    expect(statusText(result(outcome, "why"))).toBe(text);
  });

  it("applied: the transition, and the message after it when there is one", () => {
    expect(statusText(result("applied"))).toBe("Applied 2026-11-21 09:05 UTC: approved → accounted");
    expect(statusText(result("applied", "Confirmed by reading the record."))).toBe("Applied 2026-11-21 09:05 UTC: approved → accounted. Confirmed by reading the record.");
  });

  it("already applied: what the server had, and the message after it when there is one", () => {
    expect(statusText(result("already-applied"))).toBe("Already applied 2026-11-21 09:05 UTC: the server already had accounted with these values; nothing sent.");
    expect(statusText(result("already-applied", "The service said \"no\"."))).toBe(
      "Already applied 2026-11-21 09:05 UTC: the server already had accounted with these values; nothing sent. The service said \"no\".");
  });

  it("an edit on a row gone from its query keeps Refresh's mark, so the next Preview still knows it is gone", () => {
    expect(statusText(result("invalid", GONE_EDIT_MESSAGE))).toBe(
      "Not returned by the service any more for this table's query (2026-11-21 09:05 UTC): your edit was not sent. " +
      "Refresh to see whether it is back, or load a query that returns it and edit it there.");
  });
});

describe("the status colour", () => {
  it("green for done, red for refused, amber for the rest; one for every outcome", () => {
    expect(Object.keys(OUTCOME_FILLS).sort()).toEqual([...OUTCOMES].sort());
    const green = "#C6EFCE";
    const red = "#FFC7CE";
    const amber = "#FFEB9C";
    expect(OUTCOME_FILLS).toEqual({
      applied: green, "already-applied": green, overwritten: amber, rejected: red, invalid: red, check: amber, conflict: amber, "not-sent": amber, unconfirmed: amber,
    });
  });
});
