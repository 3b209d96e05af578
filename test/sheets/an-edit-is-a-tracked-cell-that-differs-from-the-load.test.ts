/**
 * An unsynced edit is a tracked cell (State, Accounted ID, Paid ID, Paid at) whose canonical value differs from what
 * was loaded for its record (src/sheets/edits/edits.ts, pure: plain calls, no Excel): a different case or spaces are no edit,
 * a row whose id was not loaded has none, a tracked column the table lacks is not read as emptied, and each edit
 * names its sheet row and every field it changed, from and to. A cell's text kind follows its column (columns.ts).
 */
import { toCell, widthOf, fullName, idOf } from "../../src/sheets/columns";
import { columnIndex, findEdits } from "../../src/sheets/edits/edits";
import type { TrackedValues } from "../../src/sheets/edits/tracked-values";
import type { CellValue } from "../../src/sheets/port/workbook";

const headers = { id: "Expense ID", state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at (UTC)" };
const HEADER = ["Expense ID", "State", "Accounted ID", "Paid ID", "Paid at (UTC)"];
const tv = (state: string, accounted_id = "", paid_id = "", paid_at = ""): TrackedValues => ({ state, accounted_id, paid_id, paid_at });
const SNAPSHOT = new Map([["E1", tv("approved")], ["E2", tv("paid", "A-1", "P-1", "2026-03-31T12:00:00Z")], ["E3", tv("approved")]]);
const edits = (rows: CellValue[][], header = HEADER) => findEdits({ header, rows }, headers, SNAPSHOT);

describe("unsynced edits", () => {
  it("each changed tracked field of a loaded record, with its sheet row, from and to, in the columns' order", () => {
    expect(edits([
      ["E3", "approved", "", "", ""],
      [" E1 ", "Paid", "", "PAY-7", 46112.5],
      ["E2", "paid", "A-1", "P-1", "2026-03-31T12:00:00Z"],
    ])).toEqual([{
      id: "E1", row: 1, fields: [
        { key: "state", from: "approved", to: "paid" }, { key: "paid_id", from: "", to: "PAY-7" }, { key: "paid_at", from: "", to: "2026-03-31T12:00:00Z" },
      ],
    }]);
  });

  it("a cleared cell is an edit to \"\"; another case or surrounding spaces are none", () => {
    expect(edits([["E2", " PAID ", "", " P-1 ", "2026-03-31T14:00:00+02:00"]])).toEqual([{ id: "E2", row: 0, fields: [{ key: "accounted_id", from: "A-1", to: "" }] }]);
  });

  it("rows whose id was not loaded, or that have none, have no edit", () => {
    expect(edits([["E9", "paid", "", "", ""], ["", "paid", "", "", ""], [undefined as unknown as CellValue, "paid"]])).toEqual([]);
  });

  it("a tracked column the table no longer has is not read as emptied", () => {
    expect(edits([["E2", "paid", "A-1"]], ["Expense ID", "State", "Accounted ID"])).toEqual([]);
    expect(edits([["E2", "P-2"]], ["Expense ID", "Paid ID"])).toEqual([{ id: "E2", row: 0, fields: [{ key: "paid_id", from: "P-1", to: "P-2" }] }]);
  });

  it("a table without its id column has no edits", () => {
    expect(edits([["E1", "paid", "", "", ""]], ["ID", "State", "Accounted ID", "Paid ID", "Paid at (UTC)"])).toEqual([]);
  });

  it("columns are found by their header text", () => {
    expect([...columnIndex(["A", "B", "C"])]).toEqual([["A", 0], ["B", 1], ["C", 2]]);
  });
});

describe("a service value as a cell of its column's kind", () => {
  it("missing is an empty cell; text stays as sent in any kind unless it is a real date or timestamp there", () => {
    expect([toCell("text", null), toCell("amount", undefined), toCell("integer", "00123"), toCell("amount", "1E5"), toCell("text", "=HYPERLINK(1)")])
      .toEqual(["", "", "00123", "1E5", "=HYPERLINK(1)"]);
    expect([toCell("date", "2026-03-31"), toCell("timestamp", "2026-03-31T12:00:00Z"), toCell("text", "2026-03-31"), toCell("date", "2026-02-30")])
      .toEqual([46112, 46112.5, "2026-03-31", "2026-02-30"]);
  });

  it("numbers stay numbers in number kinds; booleans are Yes/No in a boolean column; anything else is its JSON text", () => {
    expect([toCell("integer", 42), toCell("number", 1.5), toCell("amount", -3), toCell("percent", 19)]).toEqual([42, 1.5, -3, 19]);
    expect([toCell("boolean", true), toCell("boolean", false), toCell("boolean", 1), toCell("text", true), toCell("id", 42)]).toEqual(["Yes", "No", "1", "true", "42"]);
    expect([toCell("amount", Infinity), toCell("amount", NaN), toCell("number", true), toCell("text", { a: 1 }), toCell("date", 46112)])
      .toEqual(["null", "null", "true", '{"a":1}', "46112"]);
  });

  it("a column's floor: its own width, else its kind's (amount 95, timestamp 118, date 68), else none", () => {
    expect([widthOf({ kind: "amount" }), widthOf({ kind: "timestamp" }), widthOf({ kind: "date" }), widthOf({ kind: "text" }), widthOf({ kind: "amount", width: 40 })])
      .toEqual([95, 118, 68, undefined, 40]);
  });

  it("a person's name: first and last, as sent, empty parts left out; no person, no name", () => {
    expect([fullName({ first_name: " Ana", last_name: "Díaz " }), fullName({ first_name: "Ana", last_name: "" }), fullName({ last_name: "Díaz" }), fullName(null), fullName(undefined)])
      .toEqual([" Ana Díaz ", "Ana", "Díaz", null, null]);
  });

  it("an expanded object's id: the id field where sent, else the object's id, else none", () => {
    expect([idOf("u_1", { id: "u_2" }), idOf(undefined, { id: "u_2" }), idOf(null, { name: "x" }), idOf(undefined, null), idOf(undefined, "u_3")])
      .toEqual(["u_1", "u_2", null, null, null]);
  });
});
