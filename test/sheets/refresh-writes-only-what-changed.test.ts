/**
 * A Refresh of only what changed writes, per row, exactly what moved (src/sheets/refresh/plan.ts, pure: plain calls,
 * no Excel): the service's cells of a record the service changed; the tracked cells where the server moved them and
 * the user has no edit kept, or where an edit is given up (discarded, or the server now holds what was typed); the
 * status where it must change (an edit kept, a record gone, a duplicate row); new records below the last row, or
 * into the one blank row of a table loaded empty. A row nothing moved in is not written.
 */
import type { Column } from "../../src/sheets/columns";
import type { Load } from "../../src/sheets/load/context";
import { EDITABLE_FILL, EDITED_FILL } from "../../src/sheets/port/marks";
import type { Collected } from "../../src/sheets/refresh/collect";
import { DUPLICATE_NOTE, planRefresh, type Patch, type SheetCells } from "../../src/sheets/refresh/plan";
import { digestOf, rowHashes } from "../../src/sheets/edits/row-hashes";
import type { SnapshotRead } from "../../src/sheets/edits/snapshot";
import type { TrackedValues } from "../../src/sheets/edits/tracked-values";
import type { CellValue } from "../../src/sheets/port/workbook";

const text = (key: string, header: string, more: Partial<Column<never>> = {}): Column<never> => ({ key, header, kind: "text", value: () => null, ...more });
const COLUMNS: Column<never>[] = [
  { key: "id", header: "Expense ID", kind: "id", value: () => null },
  { key: "amount", header: "Amount", kind: "amount", value: () => null, currencyKey: "currency" },
  text("currency", "Currency"),
  text("state", "State", { editable: true }),
  text("accounted_id", "Accounted ID", { editable: true }),
  text("paid_id", "Paid ID", { editable: true }),
  { key: "paid_at", header: "Paid at (UTC)", kind: "timestamp", value: () => null, editable: true },
  text("status", "Sync status"),
  text("description", "Description"),
];
const LAYOUT = COLUMNS.map((c) => c.header);
const HASHED = [0, 1, 2, 8];
const TRACKED_PLACES = [3, 4, 5, 6];
const STATUS = 7;
const PLAIN = ["@", "#,##0.00", "@", "@", "@", "@", "yyyy-mm-dd hh:mm:ss", "@", "@"];
const CLP = ["@", "#,##0", "@", "@", "@", "@", "yyyy-mm-dd hh:mm:ss", "@", "@"];
const KWD = ["@", "#,##0.000", "@", "@", "@", "@", "yyyy-mm-dd hh:mm:ss", "@", "@"];
const STAMP = "2026-05-01 10:07 UTC";
const REMOVED = `Not returned by the service any more for this table's query (refresh ${STAMP})`;

const loadOf = (more: Partial<Load> = {}, discardEdits = false): Load => ({
  layout: LAYOUT, source: { columns: COLUMNS }, statusHeader: "Sync status", options: { discardEdits }, tracked: true, hashed: HASHED,
  trackedHeaders: { id: "Expense ID", state: "State", accounted_id: "Accounted ID", paid_id: "Paid ID", paid_at: "Paid at (UTC)" },
  now: new Date("2026-05-01T10:07:30Z"), ...more,
}) as unknown as Load;

interface Rec { id: string; amount: CellValue; currency: string; state: string; acc?: string; paid?: string; desc?: string; status?: string }
const rowOf = (r: Rec): CellValue[] => [r.id, r.amount, r.currency, r.state, r.acc ?? "", r.paid ?? "", "", r.status ?? "", r.desc ?? "Taxi"];
const tv = (r: Rec): TrackedValues => ({ state: r.state, accounted_id: r.acc ?? "", paid_id: r.paid ?? "", paid_at: "" });

function collectedOf(records: Rec[], readOnly: [string, string][] = []): Collected {
  return {
    incoming: new Map(records.map((r) => [r.id, rowOf(r)])), hashes: new Map(records.map((r) => [r.id, rowHashes(rowOf(r), HASHED)])),
    fresh: new Map(records.map((r) => [r.id, tv(r)])), readOnly: new Map(readOnly), count: records.length, malformed: 0,
  };
}
function loadedOf(records: Rec[], readOnly: [string, string][] = [], digests = true): SnapshotRead {
  return {
    snapshot: new Map(records.map((r) => [r.id, tv(r)])), rowOf: new Map(records.map((r, i) => [r.id, i])), readOnly: new Map(readOnly),
    digests: digests ? new Map(records.map((r) => [r.id, digestOf(rowHashes(rowOf(r), HASHED))])) : null, rowCount: records.length,
  };
}
/** The sheet as the user left it: each row's id, tracked cells and status. */
function sheetOf(rows: { id: string; state?: string; acc?: string; paid?: string; at?: CellValue; status?: string }[]): SheetCells {
  return {
    sheetName: "Expenses", header: LAYOUT, ids: rows.map((r) => r.id), statuses: rows.map((r) => r.status ?? ""),
    tracked: new Map<string, CellValue[]>([
      ["State", rows.map((r) => r.state ?? "")], ["Accounted ID", rows.map((r) => r.acc ?? "")], ["Paid ID", rows.map((r) => r.paid ?? "")],
      ["Paid at (UTC)", rows.map((r) => r.at ?? "")],
    ]),
  };
}
/** A patch as the plan gives it: values and fills by layout place (absent: left as it is). */
const patch = (row: number, formats: string[], values: Record<number, CellValue>, fills: Record<number, string | null> = {}): Patch => ({
  row, formats, values: LAYOUT.map((_, p) => values[p]), fills: LAYOUT.map((_, p) => fills[p]),
});
const patches = (plan: ReturnType<typeof planRefresh>) => [...plan.patches.values()].sort((a, b) => a.row - b.row);
const serviceCells = (r: Rec) => Object.fromEntries(HASHED.map((p) => [p, rowOf(r)[p]]));
const trackedCells = (r: Rec) => Object.fromEntries(TRACKED_PLACES.map((p) => [p, rowOf(r)[p]]));
const allFills = (fill: string) => Object.fromEntries(TRACKED_PLACES.map((p) => [p, fill]));

const E1: Rec = { id: "E1", amount: 1000, currency: "CLP", state: "approved" };

describe("a record nothing moved in", () => {
  it("is not written, not counted, and its snapshot row stays", () => {
    const plan = planRefresh(loadOf(), collectedOf([E1]), loadedOf([E1]), sheetOf([{ id: "E1", state: "approved" }]));
    expect(patches(plan)).toEqual([]);
    expect({ changed: plan.changed, records: plan.records, removed: plan.removed, added: plan.added, updated: plan.updated, rows: plan.rows })
      .toEqual({ changed: [], records: [], removed: [], added: 0, updated: 0, rows: 1 });
  });
});

describe("a record the service changed", () => {
  it("gets its service cells written again, in its currency's format, and is checked for typed-over cells", () => {
    const now = { ...E1, amount: 1500, desc: "Taxi home" };
    const plan = planRefresh(loadOf(), collectedOf([now]), loadedOf([E1]), sheetOf([{ id: "E1", state: "approved" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, serviceCells(now))]);
    expect(plan.changed).toEqual([{ row: 0, id: "E1" }]);
    expect(plan.records).toEqual([{ id: "E1", values: tv(now), readOnly: undefined, cells: rowHashes(rowOf(now), HASHED) }]);
    expect([plan.updated, plan.added, plan.rows]).toEqual([1, 0, 1]);
  });

  it("with no digests kept (an older snapshot), every record counts as changed", () => {
    const plan = planRefresh(loadOf(), collectedOf([E1]), loadedOf([E1], [], false), sheetOf([{ id: "E1", state: "approved" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, serviceCells(E1))]);
    expect(plan.updated).toBe(1);
  });
});

describe("tracked cells", () => {
  it("the server moved them and the user has no edit: the server's values are written, the fills left as they are", () => {
    const now = { ...E1, state: "paid", acc: "ACC-1" };
    const plan = planRefresh(loadOf(), collectedOf([now]), loadedOf([E1]), sheetOf([{ id: "E1", state: "approved" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, trackedCells(now))]);
    expect(plan.changed).toEqual([]);
    expect(plan.records).toEqual([{ id: "E1", values: tv(now), readOnly: undefined, cells: rowHashes(rowOf(now), HASHED) }]);
    expect(plan.updated).toBe(1);
  });

  it("the user's edit where the server did not move: kept, the edited cell marked, the status says Unsynced (its old colour cleared)", () => {
    const plan = planRefresh(loadOf(), collectedOf([E1]), loadedOf([E1]), sheetOf([{ id: "E1", state: "paid", status: "Will send: paid" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, { [STATUS]: "Unsynced: paid (server: approved)" }, { 3: EDITED_FILL, [STATUS]: null })]);
    expect(plan.decisions.kept).toBe(1);
    expect([plan.updated, plan.records.length, plan.changed.length]).toEqual([0, 0, 0]);
  });

  it("the user's edit where the server moved too: kept, marked, flagged with the server's values, which fill the cells the user did not edit", () => {
    const now = { ...E1, acc: "ACC-9" };
    const plan = planRefresh(loadOf(), collectedOf([now]), loadedOf([E1]), sheetOf([{ id: "E1", state: "paid" }]));
    // State (place 3) is the user's and stays as typed; Accounted ID and the rest take the server's, so ACC-9 never reads as cleared (issue 43).
    const { 3: _state, ...serverTracked } = trackedCells(now);
    const { 3: _fill, ...editable } = allFills(EDITABLE_FILL);
    expect(patches(plan)).toEqual([patch(0, CLP, {
      ...serverTracked,
      [STATUS]: `Edited here and changed on the server (refresh ${STAMP}): someone else changed it since you loaded, the server now has approved, Accounted ID ACC-9; ` +
        "your edit (State paid) is kept on top of it: paid, Accounted ID ACC-9. Preview checks it against the server's values; discard it if you no longer want it.",
    }, { ...editable, 3: EDITED_FILL })]);
    expect(serverTracked[4]).toBe("ACC-9");
    expect(plan.decisions.conflicts).toBe(1);
    expect(plan.updated).toBe(0);
    expect(plan.records).toEqual([{ id: "E1", values: tv(now), readOnly: undefined, cells: rowHashes(rowOf(now), HASHED) }]);
  });

  it("the server now holds what the user typed: the server's values written back with the editable fill (Preview's mark goes)", () => {
    const now = { ...E1, state: "paid" };
    const plan = planRefresh(loadOf(), collectedOf([now]), loadedOf([E1]), sheetOf([{ id: "E1", state: "Paid" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, trackedCells(now), allFills(EDITABLE_FILL))]);
    expect(plan.updated).toBe(1);
  });

  it("edits discarded: the server's values written over the user's, with the editable fill, the status cleared", () => {
    const plan = planRefresh(loadOf({}, true), collectedOf([E1]), loadedOf([E1]), sheetOf([{ id: "E1", state: "paid", acc: "X", status: "Will send: paid" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, { ...trackedCells(E1), [STATUS]: "" }, { ...allFills(EDITABLE_FILL), [STATUS]: null })]);
    expect(plan.decisions.discarded).toBe(1);
    expect(plan.updated).toBe(1);
    expect(plan.records).toEqual([]);
  });

  it("a table of records with no tracked cells (movements): no edit is looked for, the tracked cells are never written", () => {
    const load = loadOf({ tracked: false });
    const now = { ...E1, state: "paid" };
    const plan = planRefresh(load, collectedOf([now]), loadedOf([E1]), { ...sheetOf([{ id: "E1" }]), tracked: new Map() });
    expect(patches(plan)).toEqual([]);
    expect([plan.updated, plan.records.length, plan.decisions.kept]).toEqual([0, 0, 0]);
  });

  it("a malformed record's read-only note stands over its kept edit's Unsynced status; the edit stays marked", () => {
    const note = "Read-only: the service sent state 7, which does not match the API. Sync states will not send this row; ask your Spend Sync contact.";
    const bad = { ...E1, status: note };
    const plan = planRefresh(loadOf(), collectedOf([bad], [["E1", "state 7"]]), loadedOf([E1], [["E1", "state 7"]]), sheetOf([{ id: "E1", state: "paid", status: "" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, { [STATUS]: note }, { 3: EDITED_FILL })]);
    expect(plan.decisions.kept).toBe(1);
  });
});

describe("statuses", () => {
  it("a record gone from the query is marked once (its old colour cleared), and counted as removed every time", () => {
    const plan = planRefresh(loadOf(), collectedOf([]), loadedOf([E1, { ...E1, id: "E2" }]),
      sheetOf([{ id: "E1", state: "approved", status: "Synced: paid" }, { id: "E2", state: "approved", status: "Not returned by the service any more (refresh 2026-04-01 09:00 UTC)" }]));
    expect(patches(plan)).toEqual([patch(0, PLAIN, { [STATUS]: REMOVED }, { [STATUS]: null })]);
    expect(plan.removed).toEqual(["E1", "E2"]);
    expect([plan.updated, plan.records.length]).toEqual([0, 0]);
  });

  it("a sync's outcome the server's row no longer has is cleared, with its colour", () => {
    const plan = planRefresh(loadOf(), collectedOf([E1]), loadedOf([E1]), sheetOf([{ id: "E1", state: "approved", status: "Synced: approved" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, { [STATUS]: "" }, { [STATUS]: null })]);
    expect(plan.updated).toBe(0);
  });

  it("an id on two rows: its first row takes the record whole, not checked for typed cells; the second is marked a duplicate once", () => {
    const sheet = sheetOf([{ id: "E1", state: "approved" }, { id: "E1", state: "approved" }, { id: "E1", state: "approved", status: DUPLICATE_NOTE }]);
    const plan = planRefresh(loadOf(), collectedOf([E1]), loadedOf([E1]), sheet);
    expect(patches(plan)).toEqual([patch(0, CLP, serviceCells(E1)), patch(1, PLAIN, { [STATUS]: DUPLICATE_NOTE })]);
    expect(plan.changed).toEqual([]);
    expect(plan.updated).toBe(1);
    expect(plan.records).toEqual([{ id: "E1", values: tv(E1), readOnly: undefined, cells: rowHashes(rowOf(E1), HASHED) }]);
  });
});

describe("the snapshot's rows", () => {
  it("a record that became malformed, or stopped being so, gets its snapshot row again though no cell moved", () => {
    const plan = planRefresh(loadOf(), collectedOf([E1], [["E1", "state 7"]]), loadedOf([E1]), sheetOf([{ id: "E1", state: "approved" }]));
    expect(plan.records).toEqual([{ id: "E1", values: tv(E1), readOnly: "state 7", cells: rowHashes(rowOf(E1), HASHED) }]);
    const back = planRefresh(loadOf(), collectedOf([E1]), loadedOf([E1], [["E1", "state 7"]]), sheetOf([{ id: "E1", state: "approved" }]));
    expect(back.records).toEqual([{ id: "E1", values: tv(E1), readOnly: undefined, cells: rowHashes(rowOf(E1), HASHED) }]);
    expect([plan.updated, back.updated, patches(plan).length]).toEqual([0, 0, 0]);
  });

  it("a record on the sheet the snapshot has no row for gets one", () => {
    const loaded = loadedOf([E1]);
    loaded.rowOf.clear();
    const plan = planRefresh(loadOf(), collectedOf([E1]), loaded, sheetOf([{ id: "E1", state: "approved" }]));
    expect(plan.records).toEqual([{ id: "E1", values: tv(E1), readOnly: undefined, cells: rowHashes(rowOf(E1), HASHED) }]);
  });

  it("a record the snapshot has no tracked values for has its tracked cells written", () => {
    const loaded = loadedOf([E1]);
    loaded.snapshot.clear();
    const plan = planRefresh(loadOf(), collectedOf([E1]), loaded, sheetOf([{ id: "E1", state: "whatever" }]));
    expect(patches(plan)).toEqual([patch(0, CLP, trackedCells(E1))]);
    expect(plan.records.length).toBe(1);
  });
});

describe("new records", () => {
  const E2: Rec = { id: "E2", amount: 2.125, currency: "KWD", state: "approved", status: "Read-only: x" };
  const E3: Rec = { id: "E3", amount: 7, currency: "CLP", state: "paid" };

  it("go below the last row, whole, each in its own currency's format; empty rows are no record's", () => {
    const plan = planRefresh(loadOf(), collectedOf([E1, E2, E3], [["E2", "x"]]), loadedOf([E1]), sheetOf([{ id: "E1", state: "approved" }, { id: "" }]));
    const whole = (r: Rec) => Object.fromEntries(rowOf(r).map((v, p) => [p, v]));
    expect(patches(plan)).toEqual([patch(2, KWD, whole(E2)), patch(3, CLP, whole(E3))]);
    expect(plan.records).toEqual([
      { id: "E2", values: tv(E2), readOnly: "x", cells: rowHashes(rowOf(E2), HASHED) },
      { id: "E3", values: tv(E3), readOnly: undefined, cells: rowHashes(rowOf(E3), HASHED) },
    ]);
    expect([plan.added, plan.rows, plan.updated]).toEqual([2, 4, 0]);
  });

  it("the first takes the one blank row of a table loaded empty", () => {
    const plan = planRefresh(loadOf(), collectedOf([E3]), loadedOf([]), sheetOf([{ id: "" }]));
    expect(patches(plan).map((p) => p.row)).toEqual([0]);
    expect([plan.added, plan.rows]).toEqual([1, 1]);
  });

  it("a lone row without an id that holds something (a status, a tracked cell) is kept: the new record goes below it", () => {
    for (const row of [{ id: "", status: "x" }, { id: "", state: "paid" }, { id: "", acc: "A" }, { id: "", paid: "P" }, { id: "", at: 46000 }]) {
      const plan = planRefresh(loadOf(), collectedOf([E3]), loadedOf([]), sheetOf([row]));
      expect(patches(plan).map((p) => p.row)).toEqual([1]);
      expect(plan.rows).toBe(2);
    }
  });

  it("a table of one record whose tracked and status cells are empty: the new record goes below it, not over it", () => {
    const load = loadOf({ tracked: false });
    const plan = planRefresh(load, collectedOf([E1, E3]), loadedOf([E1]), { ...sheetOf([{ id: "E1" }]), tracked: new Map() });
    expect(patches(plan).map((p) => p.row)).toEqual([1]);
    expect([plan.added, plan.rows]).toEqual([1, 2]);
  });

  it("two rows without ids: the new record goes below them", () => {
    const plan = planRefresh(loadOf(), collectedOf([E3]), loadedOf([]), sheetOf([{ id: "" }, { id: "" }]));
    expect(patches(plan).map((p) => p.row)).toEqual([2]);
  });
});
