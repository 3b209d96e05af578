/**
 * The pure planner: per record, what was loaded against what the sheet says now. Every edited row ends in
 * exactly one class: a change (with the exact PATCH body), or invalid (with a message that says what to
 * fix). The rules are the service's own, from src/domain, so a row the planner passes is one the service
 * would take, and an invalid row is never sent.
 */
import {
  checkTransition, isTargetState, messages, normalizeTimestamp, parsePatchBody, statesOf,
  type StatePatch, type TrackedResource,
} from "../domain";
import { TRACKED_KEYS, TRACKED_WORDS, trackedSpecOf, type ReadOnly, type Snapshot, type TrackedKey, type TrackedValues } from "../sheets";
import type { EditVerdict } from "./edit-verdict";
import { withFormulaValues, type FormulaVerdict } from "./formula-values";
import { patchQuestion } from "./questions";
import { isMarkedGone, type SheetRow } from "./sync-table";

/** "check": a change whose Paid ID or Accounted ID looks like a date or an amount (questions.ts): sent only when confirmed. */
type PlanKind = "unchanged" | "change" | "check" | "invalid";

export interface PlannedRow {
  id: string;
  /** Body rows showing this record (more than one only for duplicates). */
  rows: number[];
  kind: PlanKind;
  /** As loaded (the snapshot); null when the record was not loaded into this table. */
  loaded: TrackedValues | null;
  /** As the sheet says now. */
  desired: TrackedValues;
  /** For a change (and a check): the body to send. */
  patch?: StatePatch;
  /** For invalid: why, and what to fix; for a check: the question. */
  message?: string;
}

export interface Plan {
  rows: PlannedRow[];
  /** Loaded records whose rows are no longer in the sheet: nothing is sent for them. */
  deleted: string[];
  /** Unedited rows Refresh marked as no longer returned by the table's query. */
  gone: number;
}

const FIELD_NAMES = TRACKED_WORDS;

/**
 * A rule's message in the columns' words: the service's field names (paid_id, paid_at, accounted_id) become the
 * headers a person sees (Paid ID, Paid at, Accounted ID), so no status names a field only the API knows (issue 43).
 */
function inColumnWords(message: string): string {
  return message.replace(/\b(accounted_id|paid_id|paid_at)\b/g, (key) => FIELD_NAMES[key as TrackedKey]);
}

/** A Paid ID or Paid at with accounted: what the service would refuse, said as what to do in the row. */
const PAID_FIELDS_WITH_ACCOUNTED = "Paid ID and Paid at go with State paid only: clear them, or set State to paid.";

/** The message of an edit on a row its table's query no longer returns. */
export const GONE_EDIT_MESSAGE = "This record is no longer returned by this table's query (see its status), so its edit is not sent. " +
  "Refresh to see whether it is back, or load a query that returns it and edit it there.";

/**
 * One record's edit, judged by the service's rules. Pure.
 * @internal plan tests check every row class of the service's rules directly.
 */
export function judgeEdit(resource: TrackedResource, loaded: TrackedValues, desired: TrackedValues): EditVerdict {
  const changed = TRACKED_KEYS.filter((k) => loaded[k] !== desired[k]);
  if (changed.length === 0) return { kind: "unchanged" };
  const state = desired.state;
  // A record loaded with a state the spec does not list is read-only (its row says so): never sent.
  if (!statesOf(resource).includes(loaded.state)) {
    return { kind: "invalid", message: `This record's state "${loaded.state}" is not one the spec lists, so the row is read-only: Sync states does not send it. Undo the edit.` };
  }
  if (state === "") return { kind: "invalid", message: "State is empty: choose accounted or paid, or undo the edit." };
  if (!statesOf(resource).includes(state)) {
    return { kind: "invalid", message: `"${state}" is not a state of ${trackedSpecOf(resource).article}; choose accounted or paid.` };
  }
  if (state === loaded.state) {
    const names = changed.map((k) => FIELD_NAMES[k]).join(", ");
    return {
      kind: "invalid",
      message: `${names} changed but State did not: the service stores these only with a change of state to accounted or paid. Change State too, or undo the edit.`,
    };
  }
  if (!isTargetState(state)) {
    return { kind: "invalid", message: `State can only be set to accounted or paid through the API (${loaded.state} → ${state} is done in the expense system itself).` };
  }
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) {
    if (loaded[key] !== "" && desired[key] === "") {
      return { kind: "invalid", message: `${FIELD_NAMES[key]} cannot be cleared through the API; put back "${loaded[key]}".` };
    }
  }
  if (desired.paid_at !== "" && normalizeTimestamp(desired.paid_at) === null) {
    return { kind: "invalid", message: `Paid at "${desired.paid_at}" is not a date-time: ${inColumnWords(messages.badTimestamp("paid_at"))} An Excel date also works.` };
  }
  const body: Record<string, string> = { state };
  for (const key of ["accounted_id", "paid_id", "paid_at"] as const) {
    if (desired[key] !== "" && desired[key] !== loaded[key]) body[key] = desired[key];
  }
  const parsed = parsePatchBody(body);
  if (!parsed.ok) return { kind: "invalid", message: inColumnWords(parsed.message) };
  if (parsed.patch.state === "accounted" && (parsed.patch.paid_id !== undefined || parsed.patch.paid_at !== undefined)) {
    return { kind: "invalid", message: PAID_FIELDS_WITH_ACCOUNTED };
  }
  const verdict = checkTransition(resource, loaded.state, parsed.patch);
  if (!verdict.ok) return { kind: "invalid", message: `${inColumnWords(verdict.message)}${trackedSpecOf(resource).refusalHint(loaded.state)}` };
  return { kind: "change", patch: parsed.patch };
}

/** The message of an edit on a record that came from the service not matching the API (the snapshot says which field). */
function readOnlyMessage(why: string): string {
  return `This record came from the service with ${why}, which does not match the API, so the row is read-only: Sync states does not send it. Undo the edit.`;
}

/**
 * Plans every row of a table against its snapshot. Pure. A record the snapshot marks read-only (`readOnly`:
 * it did not match the API when loaded) is never a change, whatever its row's status cell says now.
 */
export function planRows(resource: TrackedResource, snapshot: Snapshot, rows: SheetRow[], readOnly: ReadOnly): Plan {
  const byId = new Map<string, SheetRow[]>();
  const out: PlannedRow[] = [];
  let gone = 0;
  for (const row of rows) {
    if (!row.id) {
      out.push({
        id: "", rows: [row.row], kind: "invalid", loaded: null, desired: row.desired,
        message: "This row has no record ID, so it cannot be synced. Records are loaded by Spend Sync; do not add rows by hand.",
      });
      continue;
    }
    byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
  }
  for (const [id, same] of byId) {
    const loaded = snapshot.get(id) ?? null;
    const first = same[0];
    const at = same.map((r) => r.row);
    if (same.every(isMarkedGone)) {
      // Refresh kept the loaded values of a record its query no longer returns: an edit on it is listed, never dropped.
      if (!loaded || same.every((r) => judgeEdit(resource, loaded, r.desired).kind === "unchanged")) {
        gone += same.length;
        continue;
      }
      out.push({
        id, rows: at, kind: "invalid", loaded, desired: first.desired,
        message: GONE_EDIT_MESSAGE,
      });
      continue;
    }
    if (!loaded) {
      out.push({
        id, rows: at, kind: "invalid", loaded: null, desired: first.desired,
        message: `Record ${id} was not loaded into this table (was the ID cell edited?). Put the ID back, or refresh the table to load it.`,
      });
      continue;
    }
    const verdicts = same.map((r) => judgeEdit(resource, loaded, r.desired));
    if (same.length > 1) {
      if (verdicts.every((v) => v.kind === "unchanged")) {
        out.push({ id, rows: at, kind: "unchanged", loaded, desired: loaded });
      } else {
        out.push({
          id, rows: at, kind: "invalid", loaded, desired: same.find((_, i) => verdicts[i].kind !== "unchanged")!.desired,
          message: `This record appears in ${same.length} rows (${at.map((r) => r + 2).join(", ")}): keep one row per record, then sync.`,
        });
      }
      continue;
    }
    const why = readOnly.get(id);
    const edited = TRACKED_KEYS.filter((k) => loaded[k] !== first.desired[k]);
    const judged = why !== undefined && verdicts[0].kind !== "unchanged" ? { kind: "invalid" as const, message: readOnlyMessage(why) } : verdicts[0];
    // What formulas gave (an error, nothing) is said before anything else about the row (formula-values.ts).
    const v: FormulaVerdict = why === undefined ? withFormulaValues(judged, first, edited) : judged;
    const question = v.kind === "change" ? patchQuestion(v.patch) : v.kind === "check" ? v.message : null;
    out.push({
      id, rows: at, kind: question ? "check" : v.kind, loaded, desired: first.desired,
      ...(v.kind === "change" || v.kind === "check" ? { patch: v.patch } : {}),
      ...(v.kind === "invalid" ? { message: v.message } : {}),
      ...(question ? { message: question } : {}),
    });
  }
  const present = new Set(byId.keys());
  const deleted = [...snapshot.keys()].filter((id) => !present.has(id));
  return { rows: out, deleted, gone };
}
