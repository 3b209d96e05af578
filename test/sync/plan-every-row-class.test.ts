/**
 * The planner's classes for the rows the other plan tests do not reach (plan.ts), each stated in full: rows Refresh
 * marked gone from the query, a record on two rows, the exact body of a change, the keys a planned row carries, and
 * what the message adds after the service's words. Pure.
 */
import type { TrackedValues } from "../../src/sheets";
import { REMOVED_NOTE_PREFIX } from "../../src/sheets";
import { GONE_EDIT_MESSAGE, judgeEdit, planRows, type SheetRow } from "../../src/sync";

const blank: TrackedValues = { state: "", accounted_id: "", paid_id: "", paid_at: "" };
const values = (state: string, extra: Partial<TrackedValues> = {}): TrackedValues => ({ ...blank, state, ...extra });
const row = (id: string, at: number, desired: TrackedValues, status = ""): SheetRow => ({ row: at, id, desired, raw: { ...desired }, status });
const GONE = `${REMOVED_NOTE_PREFIX} for this table's query (2026-11-21 10:00 UTC).`;
const plan = (snapshot: [string, TrackedValues][], rows: SheetRow[]) => planRows("expense", new Map(snapshot), rows, new Map());

describe("rows Refresh marked gone from the query", () => {
  it("unedited: counted as gone, not listed", () => {
    const p = plan([["a", values("approved")]], [row("a", 0, values("approved"), GONE)]);
    expect(p).toEqual({ rows: [], deleted: [], gone: 1 });
  });

  it("edited: listed as invalid with the gone message, never sent, never dropped", () => {
    const p = plan([["a", values("approved")]], [row("a", 3, values("accounted"), GONE)]);
    expect(p.rows).toEqual([{ id: "a", rows: [3], kind: "invalid", loaded: values("approved"), desired: values("accounted"), message: GONE_EDIT_MESSAGE }]);
    expect(p.gone).toBe(0);
    expect(GONE_EDIT_MESSAGE).toBe("This record is no longer returned by this table's query (see its status), so its edit is not sent. " +
      "Refresh to see whether it is back, or load a query that returns it and edit it there.");
  });

  it("not in the snapshot: counted as gone (nothing was loaded to compare with)", () => {
    expect(plan([], [row("a", 0, values("accounted"), GONE)])).toEqual({ rows: [], deleted: [], gone: 1 });
  });

  it("a record on two rows, both gone and unedited: both counted", () => {
    expect(plan([["a", values("approved")]], [row("a", 0, values("approved"), GONE), row("a", 1, values("approved"), GONE)]).gone).toBe(2);
  });

  it("a record on two rows, both gone, one of them edited: the edit is listed, not counted away", () => {
    const p = plan([["a", values("approved")]], [row("a", 0, values("approved"), GONE), row("a", 1, values("accounted"), GONE)]);
    expect(p.gone).toBe(0);
    expect(p.rows.map((r) => [r.id, r.rows, r.kind, r.message])).toEqual([["a", [0, 1], "invalid", GONE_EDIT_MESSAGE]]);
  });

  it("a record on two rows of which only one is marked gone is a duplicate, not a gone row", () => {
    const p = plan([["a", values("approved")]], [row("a", 0, values("accounted"), GONE), row("a", 1, values("approved"))]);
    expect(p.gone).toBe(0);
    expect(p.rows.map((r) => [r.kind, r.message])).toEqual([["invalid", "This record appears in 2 rows (2, 3): keep one row per record, then sync."]]);
  });
});

describe("a record on two rows", () => {
  it("neither edited: one unchanged entry, as loaded", () => {
    const p = plan([["a", values("approved")]], [row("a", 0, values("approved")), row("a", 4, values("approved"))]);
    expect(p.rows).toEqual([{ id: "a", rows: [0, 4], kind: "unchanged", loaded: values("approved"), desired: values("approved") }]);
  });

  it("the second one edited: invalid, naming both sheet rows, showing the edited row's values", () => {
    const p = plan([["a", values("approved")]], [row("a", 0, values("approved")), row("a", 4, values("paid", { paid_id: "P-1" }))]);
    expect(p.rows).toEqual([{
      id: "a", rows: [0, 4], kind: "invalid", loaded: values("approved"), desired: values("paid", { paid_id: "P-1" }),
      message: "This record appears in 2 rows (2, 6): keep one row per record, then sync.",
    }]);
  });
});

describe("one row", () => {
  it("a change carries its body and no message; an invalid row its message and no body; an unchanged row neither", () => {
    const p = plan(
      [["c", values("approved")], ["i", values("approved")], ["u", values("approved")]],
      [row("c", 0, values("accounted", { accounted_id: "A-1" })), row("i", 1, values("approved", { paid_id: "P-1" })), row("u", 2, values("approved"))],
    );
    expect(p.rows.map((r) => [r.id, r.kind, Object.keys(r).sort()])).toEqual([
      ["c", "change", ["desired", "id", "kind", "loaded", "patch", "rows"]],
      ["i", "invalid", ["desired", "id", "kind", "loaded", "message", "rows"]],
      ["u", "unchanged", ["desired", "id", "kind", "loaded", "rows"]],
    ]);
    expect(p.rows[0].patch).toEqual({ state: "accounted", accounted_id: "A-1" });
  });

  it("the body holds the state and only the fields the row changed or fills: a kept Accounted ID is not sent again", () => {
    const verdict = judgeEdit("expense", values("accounted", { accounted_id: "A-1" }), values("paid", { accounted_id: "A-1", paid_id: "P-1" }));
    expect(verdict).toEqual({ kind: "change", patch: { state: "paid", paid_id: "P-1" } });
  });

  it("Paid at changed without the state: named as the user reads it", () => {
    const verdict = judgeEdit("expense", values("paid", { paid_at: "2026-03-01T00:00:00Z" }), values("paid", { paid_at: "2026-03-02T00:00:00Z" }));
    expect(verdict).toEqual({
      kind: "invalid",
      message: "Paid at changed but State did not: the service stores these only with a change of state to accounted or paid. Change State too, or undo the edit.",
    });
  });
});

describe("what follows the service's words in a refusal", () => {
  it("accounted with a Paid at only: clear the paid fields, or choose paid", () => {
    expect(judgeEdit("expense", values("approved"), values("accounted", { paid_at: "2026-03-02T00:00:00Z" }))).toEqual({
      kind: "invalid", message: "Paid ID and Paid at go with State paid only: clear them, or set State to paid.",
    });
  });

  it("an expense refused for its state: the service's words alone, even with a Paid ID", () => {
    expect(judgeEdit("expense", values("rejected"), values("paid", { paid_id: "P-1" }))).toEqual({
      kind: "invalid", message: "Cannot change state from 'rejected': only approved or accounted expenses can be changed through the API.",
    });
  });

  it("an allowance refused for its state: which allowances can be changed, even with a Paid ID", () => {
    expect(judgeEdit("allowance", values("rejected"), values("paid", { paid_id: "P-1" }))).toEqual({
      kind: "invalid", message: "Invalid state transition from 'rejected' to 'paid'. Only approved or accounted allowances can be changed through the API.",
    });
  });
});
