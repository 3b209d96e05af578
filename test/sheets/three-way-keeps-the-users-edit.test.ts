/**
 * Refresh is three-way (loaded, sheet, server): an unsynced edit is kept where the server did not move, its status
 * saying "Unsynced: …"; where both moved, the edit is kept and the row flagged with the server's values; where the
 * server now holds what was typed, or the record left the query, or the user discards, nothing of the edit is kept.
 * Only the first row of an id carries the record's edit (src/sheets/refresh/three-way.ts, pure: plain calls, no Excel).
 */
import type { RowEdit } from "../../src/sheets/edits/edits";
import { firstRowOfEachId, readOnlyNotesFirst, threeWay, unsyncedNote } from "../../src/sheets/refresh/three-way";
import { describeTracked, type TrackedValues } from "../../src/sheets/edits/tracked-values";
import type { CellValue } from "../../src/sheets/port/workbook";

const headers = { id: "Expense ID", state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at (UTC)" };
const HEADER = ["Expense ID", "Description", "State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Sync status"];
const STAMP = "2026-05-01 10:00 UTC";
const tv = (state: string, accounted_id = "", paid_id = "", paid_at = ""): TrackedValues => ({ state, accounted_id, paid_id, paid_at });
const row = (id: string, state: string, acc = "", paid = "", at: CellValue = ""): CellValue[] => [id, "Taxi", state, acc, paid, at, ""];
const run = (edits: RowEdit[], rows: CellValue[][], loaded: [string, TrackedValues][], fresh: [string, TrackedValues][], discard = false, header = HEADER) =>
  threeWay(edits, { header, rows }, headers, new Map(loaded), new Map(fresh), "Sync status", STAMP, discard);
const plain = (three: ReturnType<typeof threeWay>) => ({
  overrides: Object.fromEntries(three.overrides), marks: Object.fromEntries(three.marks), kept: three.kept, conflicts: three.conflicts, discarded: three.discarded,
});

describe("an edit the server did not move", () => {
  it("is kept: its cells as the user left them, its status Unsynced with both values, the edited cells marked", () => {
    const three = run(
      [{ id: "E1", row: 0, fields: [{ key: "state", from: "approved", to: "paid" }, { key: "paid_id", from: "", to: "PAY-7" }] }],
      [row("E1", " Paid ", "", "PAY-7", 46000.5)],
      [["E1", tv("approved")]], [["E1", tv("approved")]],
    );
    expect(plain(three)).toEqual({
      overrides: { E1: { State: " Paid ", "Accounted ID": "", "Paid ID": "PAY-7", "Paid at (UTC)": 46000.5, "Sync status": "Unsynced: paid, Paid ID PAY-7 (server: approved)" } },
      marks: { E1: ["State", "Paid ID"] }, kept: 1, conflicts: 0, discarded: 0,
    });
  });

  it("a tracked column the table no longer has is an empty cell in what Refresh keeps", () => {
    const header = ["Expense ID", "Description", "State", "Accounted ID", "Paid ID", "Sync status"];
    const three = run([{ id: "E1", row: 0, fields: [{ key: "state", from: "approved", to: "paid" }] }],
      [["E1", "Taxi", "paid", "ACC", "P", ""]], [["E1", tv("approved", "ACC", "P")]], [["E1", tv("approved", "ACC", "P")]], false, header);
    expect(Object.fromEntries(three.overrides)).toEqual({
      E1: { State: "paid", "Accounted ID": "ACC", "Paid ID": "P", "Paid at (UTC)": "", "Sync status": "Unsynced: paid, Accounted ID ACC, Paid ID P (server: approved, Accounted ID ACC, Paid ID P)" },
    });
  });
  it("the ID column moved away from the first place (the person dragged it): the edit is still found on its record's first row and kept", () => {
    const header = ["Description", "State", "Expense ID", "Accounted ID", "Paid ID", "Paid at (UTC)", "Sync status"];
    const three = run([{ id: "E1", row: 1, fields: [{ key: "state", from: "approved", to: "paid" }] }],
      [["Taxi", "approved", "E0", "", "", "", ""], ["Taxi", "paid", "E1", "", "", "", ""]], [["E1", tv("approved")]], [["E1", tv("approved")]], false, header);
    expect(plain(three)).toEqual({
      overrides: { E1: { State: "paid", "Accounted ID": "", "Paid ID": "", "Paid at (UTC)": "", "Sync status": "Unsynced: paid (server: approved)" } },
      marks: { E1: ["State"] }, kept: 1, conflicts: 0, discarded: 0,
    });
  });
});

describe("an edit where the server moved too", () => {
  it("is kept and the row flagged: the user's edited cells over the server's values, never a stale cell that would read as cleared", () => {
    const three = run(
      [{ id: "E2", row: 1, fields: [{ key: "state", from: "approved", to: "paid" }] }],
      [row("E1", "approved"), row("E2", "paid", "", "", "")],
      [["E1", tv("approved")], ["E2", tv("approved")]], [["E1", tv("approved")], ["E2", tv("approved", "ACC-9")]],
    );
    expect(plain(three)).toEqual({
      overrides: {
        E2: {
          // Accounted ID is not the user's edit: the server's ACC-9 is written there, not the "" the row showed when loaded.
          State: "paid",
          "Sync status": "Edited here and changed on the server (refresh 2026-05-01 10:00 UTC): someone else changed it since you loaded, the server now has approved, Accounted ID ACC-9; " +
            "your edit (State paid) is kept on top of it: paid, Accounted ID ACC-9. Preview checks it against the server's values; discard it if you no longer want it.",
        },
      },
      marks: { E2: ["State"] }, kept: 0, conflicts: 1, discarded: 0,
    });
  });
});

describe("edits Refresh does not keep", () => {
  const edit: RowEdit = { id: "E1", row: 0, fields: [{ key: "state", from: "approved", to: "paid" }] };
  const empty = { overrides: {}, marks: {}, kept: 0, conflicts: 0, discarded: 0 };

  it("the server now holds what the user typed: nothing kept, nothing counted", () => {
    expect(plain(run([edit], [row("E1", "paid")], [["E1", tv("approved")]], [["E1", tv("paid")]]))).toEqual(empty);
  });

  it("discarding: the edit is counted as discarded and the server's values go in", () => {
    expect(plain(run([edit, { ...edit, id: "E3", row: 1 }], [row("E1", "paid"), row("E3", "paid")],
      [["E1", tv("approved")], ["E3", tv("approved")]], [["E1", tv("approved")], ["E3", tv("approved", "A")]], true))).toEqual({ ...empty, discarded: 2 });
  });

  it("a record gone from the query (or never loaded) keeps its row as the user left it: nothing kept, nothing discarded", () => {
    expect(plain(run([edit], [row("E1", "paid")], [["E1", tv("approved")]], [], true))).toEqual(empty);
    expect(plain(run([edit], [row("E1", "paid")], [], [["E1", tv("approved")]], true))).toEqual(empty);
  });

  it("no table read: nothing kept", () => {
    expect(plain(threeWay([edit], null, headers, new Map([["E1", tv("approved")]]), new Map([["E1", tv("approved")]]), "Sync status", STAMP, false))).toEqual(empty);
  });

  it("an id on two rows: only its first row's edit is the record's", () => {
    const rows = [row("E1", "approved"), row(" E1 ", "paid")];
    const three = run([{ ...edit, row: 1 }], rows, [["E1", tv("approved")]], [["E1", tv("approved")]]);
    expect(plain(three)).toEqual(empty);
    const first = run([{ ...edit, row: 0 }], [row("E1", "paid"), row(" E1 ", "approved")], [["E1", tv("approved")]], [["E1", tv("approved")]]);
    expect(first.kept).toBe(1);
  });

  it("a table whose id column is gone: no row is any record's, nothing kept", () => {
    const header = ["Ref", "E1", "State", "Accounted ID", "Paid ID", "Paid at (UTC)", "Sync status"];
    expect(plain(run([edit], [["x", "E1", "paid", "", "", "", ""]], [["E1", tv("approved")]], [["E1", tv("approved")]], false, header))).toEqual(empty);
  });
});

describe("each id's first row", () => {
  it("ids trimmed, empty ids and missing cells left out, the first row of an id wins", () => {
    const first = firstRowOfEachId([["A"], [" B "], [""], ["  "], ["A"], [], ["B"], [7]], 0);
    expect([...first]).toEqual([["A", 0], ["B", 1], ["7", 7]]);
  });
});

describe("a malformed record's read-only note", () => {
  it("replaces the kept edit's status; the edit's cells stay; other rows keep their status", () => {
    const three = run(
      [{ id: "E1", row: 0, fields: [{ key: "state", from: "approved", to: "paid" }] }, { id: "E2", row: 1, fields: [{ key: "state", from: "approved", to: "paid" }] }],
      [row("E1", "paid"), row("E2", "paid")], [["E1", tv("approved")], ["E2", tv("approved")]], [["E1", tv("approved")], ["E2", tv("approved")]],
    );
    readOnlyNotesFirst(three, new Map([["E1", "state 7"]]), "Sync status");
    expect(Object.fromEntries(three.overrides)).toEqual({
      E1: { State: "paid", "Accounted ID": "", "Paid ID": "", "Paid at (UTC)": "" },
      E2: { State: "paid", "Accounted ID": "", "Paid ID": "", "Paid at (UTC)": "", "Sync status": "Unsynced: paid (server: approved)" },
    });
  });
});

describe("the texts a user reads", () => {
  it("a kept edit's status names what the user typed and what the server holds", () => {
    expect(unsyncedNote(tv("accounted", "ACC-1"), tv("approved"))).toBe("Unsynced: accounted, Accounted ID ACC-1 (server: approved)");
  });

  it("tracked values are described field by field, in order, empty ones left out, a missing state said so", () => {
    expect(describeTracked(tv("paid", "ACC-1", "PAY-7", "2026-05-01T10:00:00Z"))).toBe("paid, Accounted ID ACC-1, Paid ID PAY-7, Paid at 2026-05-01T10:00:00Z");
    expect(describeTracked(tv("", "", "", "2026-05-01T10:00:00Z"))).toBe("(no state), Paid at 2026-05-01T10:00:00Z");
    expect(describeTracked(tv("", "", "PAY-7"))).toBe("(no state), Paid ID PAY-7");
  });
});
