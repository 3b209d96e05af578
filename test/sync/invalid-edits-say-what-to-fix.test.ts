/**
 * An edit the service would refuse is never sent, and its message, which the row's status shows in full,
 * says what is wrong and what to do: each rule of judgeEdit with the whole text a user reads.
 */
import type { TrackedResource } from "../../src/domain";
import type { TrackedValues } from "../../src/sheets";
import { judgeEdit } from "../../src/sync";

const blank: TrackedValues = { state: "", accounted_id: "", paid_id: "", paid_at: "" };
const as = (state: string, extra: Partial<TrackedValues> = {}): TrackedValues => ({ ...blank, state, ...extra });
const NOT_A_DATE = "is not a date-time: Paid at must be an ISO 8601 date-time with Z or an offset, e.g. 2026-03-31T12:00:00Z. An Excel date also works.";

it.each<[string, TrackedResource, TrackedValues, TrackedValues, string]>([
  ["a record loaded in a state the spec does not list", "expense", as("archived"), as("paid"),
    'This record\'s state "archived" is not one the spec lists, so the row is read-only: Sync states does not send it. Undo the edit.'],
  ["a state an allowance does not have", "allowance", as("approved"), as("payed"), '"payed" is not a state of an allowance; choose accounted or paid.'],
  // A cleared State cell is said as such, never as `"" is not a state` (issue 43).
  ["State cleared", "expense", as("approved"), as(""), "State is empty: choose accounted or paid, or undo the edit."],
  ["State cleared on an allowance with an Accounted ID typed", "allowance", as("approved"), as("", { accounted_id: "A-1" }),
    "State is empty: choose accounted or paid, or undo the edit."],
  ["a state only the expense system sets", "expense", as("approved"), as("rejected"),
    "State can only be set to accounted or paid through the API (approved → rejected is done in the expense system itself)."],
  ["two fields changed and not State", "expense", as("approved"), as("approved", { accounted_id: "A", paid_id: "P" }),
    "Accounted ID, Paid ID changed but State did not: the service stores these only with a change of state to accounted or paid. Change State too, or undo the edit."],
  ["Paid ID cleared", "expense", as("accounted", { paid_id: "P-1" }), as("paid"), 'Paid ID cannot be cleared through the API; put back "P-1".'],
  ["Paid at cleared", "expense", as("accounted", { paid_at: "2026-01-01T00:00:00Z" }), as("paid"),
    'Paid at cannot be cleared through the API; put back "2026-01-01T00:00:00Z".'],
  ["a Paid at that is no date", "allowance", as("accounted"), as("paid", { paid_at: "soon" }), `Paid at "soon" ${NOT_A_DATE}`],
  ["an allowance moved from a state the API cannot change", "allowance", as("pending"), as("paid"),
    "Invalid state transition from 'pending' to 'paid'. Only approved or accounted allowances can be changed through the API."],
  ["an allowance's accounted with a payment field: the states it may take from approved", "allowance", as("approved"), as("accounted", { paid_id: "P" }),
    "Paid ID and Paid at go with State paid only: clear them, or set State to paid."],
])("%s", (_what, resource, loaded, desired, message) => {
  expect(judgeEdit(resource, loaded, desired)).toEqual({ kind: "invalid", message });
  // The columns' words, never the service's field names.
  expect(message).not.toMatch(/accounted_id|paid_id|paid_at/);
});

it("a Paid at left empty is no date to check: the change goes without it", () => {
  expect(judgeEdit("expense", as("approved"), as("paid", { paid_id: "P-1" }))).toEqual({ kind: "change", patch: { state: "paid", paid_id: "P-1" } });
});
