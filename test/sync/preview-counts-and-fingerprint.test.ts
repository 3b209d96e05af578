/**
 * What Preview reports of a plan, and the fingerprint the user confirms (preview.ts), on plans built by hand: the
 * count of every class, the rows listed in sheet order without the unchanged ones, and a fingerprint that changes
 * with anything that would be sent (or refused) and with nothing else. Pure: no workbook, no service.
 */
import type { StatePatch } from "../../src/domain";
import type { TrackedValues } from "../../src/sheets";
import { fingerprintOf, previewOf, type Plan, type PlannedRow, type SyncTable, type TypedValue } from "../../src/sync";

const values = (state: string): TrackedValues => ({ state, accounted_id: "", paid_id: "", paid_at: "" });
const planned = (id: string, row: number, kind: PlannedRow["kind"], extra: { patch?: StatePatch; message?: string } = {}): PlannedRow =>
  ({ id, rows: [row], kind, loaded: values("approved"), desired: values(kind === "unchanged" ? "approved" : "accounted"), ...extra });
const table = { tableName: "Expenses_Sub1", resource: "expense", params: { enterpriseId: "ent-7" } } as unknown as SyncTable;

const CHANGE = planned("a", 4, "change", { patch: { state: "accounted" } });
const CHECK = planned("b", 1, "check", { patch: { state: "paid", paid_id: "1,250.00" }, message: 'Paid ID "1,250.00" looks like an amount' });
const INVALID = planned("c", 3, "invalid", { message: "Paid at cannot be cleared" });
const UNCHANGED = planned("d", 0, "unchanged");
const plan = (rows: PlannedRow[], extra: Partial<Plan> = {}): Plan => ({ rows, deleted: [], gone: 0, ...extra });

describe("previewOf", () => {
  it("counts every class, the deleted records, the gone rows and the typed values", () => {
    const typed: TypedValue[] = [{ row: 0, id: "d", header: "Amount", typed: 5 }, { row: 3, id: "c", header: "Description", typed: "x" }];
    const twoChanges = [CHANGE, { ...CHANGE, id: "e", rows: [5] }];
    const preview = previewOf(table, plan([...twoChanges, CHECK, INVALID, UNCHANGED, { ...UNCHANGED, id: "f" }, { ...UNCHANGED, id: "g" }], { deleted: ["x", "y", "z", "w"], gone: 6 }), typed);
    expect(preview.counts).toEqual({ change: 2, check: 1, invalid: 1, unchanged: 3, deleted: 4, gone: 6, typed: 2 });
    expect([preview.tableName, preview.resource, preview.enterpriseId]).toEqual(["Expenses_Sub1", "expense", "ent-7"]);
    expect(preview.deleted).toEqual(["x", "y", "z", "w"]);
    expect(preview.typed).toBe(typed);
  });

  it("lists the rows to send and the rows refused in sheet order, never the unchanged ones", () => {
    const preview = previewOf(table, plan([CHANGE, UNCHANGED, INVALID, CHECK]));
    expect(preview.rows.map((r) => [r.id, r.rows[0]])).toEqual([["b", 1], ["c", 3], ["a", 4]]);
  });

  it("sheet order is by number, not as text (row 10 after row 9)", () => {
    const preview = previewOf(table, plan([{ ...CHANGE, rows: [10] }, { ...INVALID, rows: [9] }, { ...CHECK, rows: [2] }]));
    expect(preview.rows.map((r) => r.rows[0])).toEqual([2, 9, 10]);
  });

  it("no typed values unless given", () => {
    const preview = previewOf(table, plan([CHANGE]));
    expect([preview.typed, preview.counts.typed]).toEqual([[], 0]);
  });

  it("carries the plan's fingerprint", () => {
    expect(previewOf(table, plan([CHANGE, INVALID])).fingerprint).toBe(fingerprintOf(plan([CHANGE, INVALID])));
  });
});

describe("fingerprintOf", () => {
  const base = plan([CHANGE, CHECK, INVALID, UNCHANGED]);

  it("says which records go with which body, and which are refused with which message", () => {
    expect(JSON.parse(fingerprintOf(base))).toEqual([
      ["a", "change", { state: "accounted" }],
      ["b", "check", { state: "paid", paid_id: "1,250.00" }],
      ["c", "invalid", "Paid at cannot be cleared"],
    ]);
  });

  it("is the same whatever the order of the rows, and whatever the unchanged rows", () => {
    expect(fingerprintOf(plan([UNCHANGED, INVALID, CHECK, CHANGE, { ...UNCHANGED, id: "z" }]))).toBe(fingerprintOf(base));
    expect(fingerprintOf(plan([CHANGE, CHECK, INVALID]))).toBe(fingerprintOf(base));
  });

  it("changes with a row's class, its body, its message or its record", () => {
    const others = [
      plan([{ ...CHANGE, kind: "check" }, CHECK, INVALID]),
      plan([{ ...CHANGE, patch: { state: "paid" } }, CHECK, INVALID]),
      plan([CHANGE, CHECK, { ...INVALID, message: "Paid ID cannot be cleared" }]),
      plan([{ ...CHANGE, id: "a2" }, CHECK, INVALID]),
      plan([CHANGE, CHECK]),
      plan([CHANGE, CHECK, INVALID, { ...UNCHANGED, kind: "change", patch: { state: "accounted" } }]),
    ];
    for (const other of others) expect(fingerprintOf(other)).not.toBe(fingerprintOf(base));
  });
});
