/**
 * Preview puts back a row whose mark no longer holds (the edit undone, the typed value put back): the marks
 * Refresh wrote on kept edits ("Unsynced: …", "Edited here and changed on the server …") and earlier previews'
 * ("Will send:", "Invalid:", "Check:", a typed-value note alone or after another status) go, the tracked cells
 * get the editable fill back, the service's cells lose their mark; a row gone from its query keeps "Not
 * returned …". Any other status (an outcome of a sync) is left as it is. Pure.
 */
import { EDITABLE_FILL, type TrackedValues } from "../../src/sheets";
import { GONE_NOT_SENT, previewMarks, type SheetRow } from "../../src/sync";

const loaded: TrackedValues = { state: "approved", accounted_id: "", paid_id: "", paid_at: "" };
const columns = { id: 0, state: 5, accounted_id: 6, paid_id: 7, paid_at: 8, status: 9 };
const where = { header: ["ID", "Amount", "Description", "x", "y", "State", "Accounted ID", "Paid ID", "Paid at", "Sync status"], service: ["Amount", "Description"] };
const row = (status: string): SheetRow => ({ row: 4, id: "e4", desired: { ...loaded }, raw: { ...loaded }, status });
const putBack = (status = "") => [
  { row: 4, column: 9, value: status, fill: null },
  // The fill alone on the tracked cells: what they hold (a formula too, issue 47) stays.
  ...[5, 6, 7, 8].map((column) => ({ row: 4, column, fill: EDITABLE_FILL })),
];
const TYPED = "Not sent: Amount is the service's (typed here: Amount 5); Sync states sends only State, Accounted ID, Paid ID and Paid at.";

it.each([
  "Unsynced: paid, Paid ID PAY-1 (server: approved)",
  "Edited here and changed on the server: yours paid, the server's accounted",
  "Will send: approved → paid",
  'Invalid: "payed" is not a state of an expense; choose accounted or paid.',
  'Check: Paid ID "10:00" looks like a date: did you mean it for Paid at?',
])("%j, no longer true: cleared, editable fill back", (status) => {
  expect(previewMarks({ columns, rows: [row(status)] }, [], [], where)).toEqual(putBack());
});

it("a typed-value note alone, the value put back: cleared, and the service's cells lose their mark", () => {
  expect(previewMarks({ columns, rows: [row(TYPED)] }, [], [], where)).toEqual([
    { row: 4, column: 9, value: "", fill: null },
    { row: 4, column: 1, fill: null },
    { row: 4, column: 2, fill: null },
    ...putBack().slice(1),
  ]);
});

it("a typed-value note after a status Preview wrote: cleared the same way", () => {
  expect(previewMarks({ columns, rows: [row(`Will send: approved → paid ${TYPED}`)] }, [], [], where)).toEqual([
    { row: 4, column: 9, value: "", fill: null },
    { row: 4, column: 1, fill: null },
    { row: 4, column: 2, fill: null },
    ...putBack().slice(1),
  ]);
});

it("a gone row's edit undone: back to saying it is gone, with no promise about an edit", () => {
  expect(previewMarks({ columns, rows: [row(GONE_NOT_SENT)] }, [], [], where)).toEqual(putBack("Not returned by the service any more for this table's query."));
});

it("a gone row's typed note, the value put back: the gone mark stays", () => {
  const status = `Not returned by the service any more for this table's query. ${TYPED}`;
  expect(previewMarks({ columns, rows: [row(status)] }, [], [], where)).toEqual([
    { row: 4, column: 9, value: "Not returned by the service any more for this table's query.", fill: null },
    { row: 4, column: 1, fill: null },
    { row: 4, column: 2, fill: null },
    ...putBack().slice(1),
  ]);
});

it.each([
  "Applied 2026-11-21 10:00 UTC: approved → paid",
  "Not returned by the service any more for this table's query.",
  "Conflict, not sent 2026-11-21 10:00 UTC: Changed on the server by someone else since you loaded: State is now paid (you loaded approved).",
])("%j is no mark of Preview: left as it is", (status) => {
  expect(previewMarks({ columns, rows: [row(status)] }, [], [], where)).toEqual([]);
});
