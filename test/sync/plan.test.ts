import fc from "fast-check";
import { ALLOWANCE_STATES, EXPENSE_STATES, checkTransition, parsePatchBody, type TrackedResource } from "../../src/domain";
import { canonical, timestampToSerial, type TrackedValues } from "../../src/sheets";
import { judgeEdit, planRows, type SheetRow } from "../../src/sync";

const blank: TrackedValues = { state: "", accounted_id: "", paid_id: "", paid_at: "" };
const loadedAs = (state: string, extra: Partial<TrackedValues> = {}): TrackedValues => ({ ...blank, state, ...extra });
/** A row as the sheet shows it, from raw cell values (so the planner meets what a person typed). */
function row(id: string, cells: Partial<Record<keyof TrackedValues, string | number>>, at = 0, status = ""): SheetRow {
  const raw = { state: "", accounted_id: "", paid_id: "", paid_at: "", ...cells };
  const desired = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, canonical(k as keyof TrackedValues, v)])) as TrackedValues;
  return { row: at, id, raw, desired, status };
}

describe("every transition of spec section 3, judged from the sheet", () => {
  const cases: [TrackedResource, readonly string[]][] = [["allowance", ALLOWANCE_STATES], ["expense", EXPENSE_STATES]];
  for (const [resource, states] of cases) {
    for (const from of states) {
      for (const to of ["accounted", "paid"]) {
        if (from === to) continue;
        const allowed = (from === "approved") || (from === "accounted" && to === "paid");
        it(`${resource} ${from} → ${to}: ${allowed ? "a change" : "invalid, with the service's message"}`, () => {
          const verdict = judgeEdit(resource, loadedAs(from), { ...loadedAs(to) });
          if (allowed) expect(verdict).toEqual({ kind: "change", patch: { state: to } });
          else {
            expect(verdict.kind).toBe("invalid");
            const message = (verdict as { message: string }).message;
            if (resource === "allowance") expect(message).toMatch(new RegExp(`^Invalid state transition from '${from}' to '${to}'\\. (From ${from}, choose paid\\.|Only approved or accounted allowances can be changed through the API\\.)$`));
            else expect(message).toMatch(new RegExp(`^Cannot change state from '${from}'`));
          }
        });
      }
    }
  }
});

describe("invalid edits say what to fix and are never sent", () => {
  const judge = (loaded: TrackedValues, cells: Parameters<typeof row>[1]) => judgeEdit("expense", loaded, row("x", cells).desired);

  it("an unknown state", () => {
    expect(judge(loadedAs("approved"), { state: "payed" })).toEqual({ kind: "invalid", message: '"payed" is not a state of an expense; choose accounted or paid.' });
  });
  it("a state the API cannot set", () => {
    expect(judge(loadedAs("approved"), { state: "rejected" })).toMatchObject({ kind: "invalid", message: expect.stringMatching(/only be set to accounted or paid/) });
  });
  it("tracking fields changed without a change of state", () => {
    expect(judge(loadedAs("approved"), { state: "approved", accounted_id: "ACC-1" })).toMatchObject({
      kind: "invalid", message: expect.stringMatching(/^Accounted ID changed but State did not/),
    });
  });
  it("paid_id or paid_at with target accounted", () => {
    expect(judge(loadedAs("approved"), { state: "accounted", paid_id: "P-9" })).toEqual({
      kind: "invalid", message: "Paid ID and Paid at go with State paid only: clear them, or set State to paid.",
    });
  });
  it("a field the API cannot clear", () => {
    expect(judge(loadedAs("accounted", { accounted_id: "ACC-7" }), { state: "paid", accounted_id: "" })).toEqual({
      kind: "invalid", message: 'Accounted ID cannot be cleared through the API; put back "ACC-7".',
    });
  });
  it("a paid_at that is not a date-time, or has no zone", () => {
    for (const text of ["next friday", "2026-03-31T12:00:00"]) {
      expect(judge(loadedAs("approved"), { state: "paid", paid_at: text })).toMatchObject({
        kind: "invalid", message: expect.stringContaining(`Paid at "${text}" is not a date-time`),
      });
    }
  });
  it("an id longer than the service stores", () => {
    expect(judge(loadedAs("approved"), { state: "paid", paid_id: "P".repeat(300) })).toEqual({ kind: "invalid", message: "Paid ID must be at most 255 characters." });
  });
});

describe("what is sent", () => {
  it("states are trimmed and case-insensitive; paid_at from an Excel date or ISO with an offset goes as UTC", () => {
    const serial = timestampToSerial("2026-10-31T15:30:00Z")!;
    expect(judgeEdit("allowance", loadedAs("approved"), row("a", { state: " Paid ", paid_id: "PAY-1", paid_at: serial }).desired)).toEqual({
      kind: "change", patch: { state: "paid", paid_id: "PAY-1", paid_at: "2026-10-31T15:30:00Z" },
    });
    expect(judgeEdit("expense", loadedAs("accounted", { accounted_id: "ACC-1" }), row("e", { state: "PAID", accounted_id: "ACC-1", paid_at: "2026-10-31 12:30:00-03:00" }).desired)).toEqual({
      kind: "change", patch: { state: "paid", paid_at: "2026-10-31T15:30:00Z" },
    });
  });
  it("an untouched row is unchanged, whatever case the loaded state was in", () => {
    expect(judgeEdit("expense", loadedAs("approved"), row("e", { state: "approved" }).desired)).toEqual({ kind: "unchanged" });
  });
});

describe("planning a whole table", () => {
  const snapshot = new Map<string, TrackedValues>([
    ["a", loadedAs("approved")], ["b", loadedAs("approved")], ["c", loadedAs("accounted")], ["d", loadedAs("approved")], ["gone", loadedAs("approved")],
  ]);

  it("handles sorted rows, duplicates, unknown and missing ids, deleted rows and rows marked gone", () => {
    const rows = [
      row("c", { state: "paid", paid_id: "P-3" }, 0),
      row("a", { state: "accounted", accounted_id: "ACC-1" }, 1),
      row("b", { state: "paid" }, 2),
      row("b", { state: "approved" }, 3),
      row("zzz", { state: "paid" }, 4),
      row("", { state: "paid" }, 5),
      row("old", { state: "approved" }, 6, "Not returned by the service any more for this table's filters (refresh …)"),
    ];
    const plan = planRows("expense", snapshot, rows, new Map());
    const byId = Object.fromEntries(plan.rows.map((r) => [r.id, r]));
    expect(byId.c).toMatchObject({ kind: "change", rows: [0], patch: { state: "paid", paid_id: "P-3" } });
    expect(byId.a).toMatchObject({ kind: "change", rows: [1], patch: { state: "accounted", accounted_id: "ACC-1" } });
    expect(byId.b).toMatchObject({ kind: "invalid", rows: [2, 3], message: "This record appears in 2 rows (4, 5): keep one row per record, then sync." });
    expect(byId.zzz).toMatchObject({ kind: "invalid", message: expect.stringMatching(/was not loaded into this table \(was the ID cell edited\?\)/) });
    expect(byId[""]).toMatchObject({ kind: "invalid", rows: [5], message: expect.stringMatching(/no record ID/) });
    expect(byId.old).toBeUndefined();
    expect(plan.gone).toBe(1);
    expect(plan.deleted.sort()).toEqual(["d", "gone"]);
  });

  it("a record the snapshot marks read-only is never a change, whatever its status cell says; untouched, it is unchanged", () => {
    const why = 'created_at "2026-13-45T00:00:00Z" (expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z)';
    const rows = [row("a", { state: "accounted", accounted_id: "ACC-1" }, 0, "someone typed over the note"), row("b", { state: "approved" }, 1), row("c", { state: "paid" }, 2)];
    const plan = planRows("expense", snapshot, rows, new Map([["a", why], ["b", why]]));
    const byId = Object.fromEntries(plan.rows.map((r) => [r.id, r]));
    expect(byId.a).toMatchObject({
      kind: "invalid",
      message: `This record came from the service with ${why}, which does not match the API, so the row is read-only: Sync states does not send it. Undo the edit.`,
    });
    expect(byId.a.patch).toBeUndefined();
    expect(byId.b).toMatchObject({ kind: "unchanged" });
    expect(byId.c).toMatchObject({ kind: "change" });
  });
});

describe("property: a row the planner passes is one the service takes", () => {
  const state = fc.constantFrom(...EXPENSE_STATES, "Paid", " accounted ", "payed", "");
  const text = fc.oneof(fc.constant(""), fc.constantFrom("ACC-1", "PAY-7", " x "), fc.string({ maxLength: 5 }), fc.constant("Z".repeat(256)));
  const when = fc.oneof(fc.constant(""), fc.constantFrom("2026-10-31T10:00:00Z", "2026-10-31T10:00:00", "yesterday", "2026-10-31T10:00:00+02:00"),
    fc.integer({ min: 40000, max: 50000 }));
  const values = fc.record({ state, accounted_id: text, paid_id: text, paid_at: when });

  it("for random loaded and edited values of both resources", () => {
    fc.assert(
      fc.property(fc.constantFrom<TrackedResource>("allowance", "expense"), fc.constantFrom(...EXPENSE_STATES), fc.record({ accounted_id: text, paid_id: text }), values,
        (resource, loadedState, loadedIds, edit) => {
          if (resource === "allowance" && loadedState === "draft") return;
          const loaded = row("r", { state: loadedState, ...loadedIds }).desired;
          const verdict = judgeEdit(resource, loaded, row("r", edit).desired);
          if (verdict.kind !== "change") return;
          // What the sandbox runs on the body it receives (paid_at in ISO 8601's extended form only):
          const parsed = parsePatchBody(JSON.parse(JSON.stringify(verdict.patch)), { wire: true });
          expect(parsed.ok).toBe(true);
          expect(checkTransition(resource, loaded.state, verdict.patch)).toEqual({ ok: true });
        }),
      { numRuns: 3000 },
    );
  });
});
