/**
 * Preview: what Sync states would do with a table, computed from the workbook alone (its id, tracked and
 * status columns and the snapshot). Nothing is sent. Every edited row is listed: to send, or why not; and
 * every value typed over the service's cells, which is never sent (typed-values.ts).
 */
import type { TrackedResource } from "../domain";
import { importSources, type Workbook } from "../sheets";
import { planRows, type Plan, type PlannedRow } from "./plan";
import { markPreview } from "./preview-marks";
import { previewReads } from "./preview-reads";
import { openSyncTable, type SyncTable } from "./sync-table";
import { findTypedValues, type TypedValue } from "./typed-values";

export interface SyncPreview {
  tableName: string;
  resource: TrackedResource;
  enterpriseId: string;
  /** `check`: changes Preview questions (questions.ts), sent only when the user confirms them (SyncOptions.sendChecked). */
  counts: { change: number; check: number; invalid: number; unchanged: number; deleted: number; gone: number; typed: number };
  /** The rows that will be sent, and the rows that will not be with the reason, in sheet order; `source`: the file lines an import filled them from. */
  rows: (PlannedRow & { source?: string })[];
  deleted: string[];
  /** Values typed over the service's cells: never sent (Sync states sends the tracked fields only). */
  typed: TypedValue[];
  /** What the user confirms; the sync refuses to run if the sheet no longer matches it. */
  fingerprint: string;
  /** The table as this preview read it (its columns, subsidiary and query): what a team batch is built from, not read again. */
  opened: SyncTable;
}

/** @internal preview-counts-and-fingerprint.test.ts checks what changes the fingerprint. */
export function fingerprintOf(plan: Plan): string {
  return JSON.stringify(plan.rows.filter((r) => r.kind !== "unchanged").map((r) => [r.id, r.kind, r.patch ?? r.message]).sort());
}

export function previewOf(table: SyncTable, plan: Plan, typed: TypedValue[] = []): SyncPreview {
  const count = (kind: PlannedRow["kind"]) => plan.rows.filter((r) => r.kind === kind).length;
  // A preview built from a plan alone (no rows read) names no sources.
  const statusOf = new Map((table.rows ?? []).map((r) => [r.row, r.status]));
  return {
    tableName: table.tableName, resource: table.resource, enterpriseId: table.params.enterpriseId,
    counts: { change: count("change"), check: count("check"), invalid: count("invalid"), unchanged: count("unchanged"), deleted: plan.deleted.length, gone: plan.gone, typed: typed.length },
    rows: plan.rows.filter((r) => r.kind !== "unchanged").sort((a, b) => a.rows[0] - b.rows[0]).map((r) => withSource(r, statusOf.get(r.rows[0]) ?? "")),
    deleted: plan.deleted,
    typed,
    fingerprint: fingerprintOf(plan),
    opened: table,
  };
}

/** A planned row with the file lines an import filled it from, where its status names them. */
function withSource(row: PlannedRow, status: string): PlannedRow & { source?: string } {
  const sources = importSources(status);
  return sources.length > 0 ? { ...row, source: sources.join("; ") } : row;
}

/**
 * What Sync states would do with a table; each column Preview decides on read once (preview-reads.ts).
 * @internal tests and bench/sync.ts ask a table's preview without the taskpane.
 */
export async function previewSync(workbook: Workbook, tableName: string): Promise<SyncPreview> {
  const reads = await previewReads(workbook, tableName);
  const table = await openSyncTable(reads, tableName);
  const { typed } = await findTypedValues(reads, table);
  return previewOf(table, planRows(table.resource, table.snapshot.snapshot, table.rows, table.snapshot.readOnly), typed);
}

/** The preview, also shown in the sheet: each edited row's status says what will happen, edited cells highlighted. */
export async function previewInSheet(workbook: Workbook, tableName: string, redact?: (text: string) => string): Promise<SyncPreview> {
  const reads = await previewReads(workbook, tableName);
  const table = await openSyncTable(reads, tableName);
  const plan = planRows(table.resource, table.snapshot.snapshot, table.rows, table.snapshot.readOnly);
  const { typed, where } = await findTypedValues(reads, table);
  await markPreview(workbook, table, plan, redact, typed, where);
  return previewOf(table, plan, typed);
}
