/**
 * Writes outcomes as the run goes, in small batches (about one a second): each decided row's status (text
 * and colour), the values the server holds into its tracked cells, the snapshot rows of records now in
 * sync, and the journal lines queued meanwhile. Only decided rows are written. Rows are found again by id
 * (the id column is read again before each batch), so a table sorted during the sync is still written right.
 */
import {
  EDITABLE_FILL, REMOVED_NOTE_PREFIX, STATUS_KEY, TRACKED_KEYS, hashedPlaces, tableGone, toCell, updateFingerprints, updateSnapshotRows,
  type CellValue, type CellWrite, type Snapshot, type Workbook,
} from "../sheets";
import type { JournalWriter } from "./journal";
import type { Outcome, RowResult } from "./outcome";
import { GONE_EDIT_MESSAGE } from "./plan";
import type { SyncTable } from "./sync-table";

/** @internal sync and outcome tests expect each outcome's fill. */
export const OUTCOME_FILLS: Record<Outcome, string> = {
  applied: "#C6EFCE",
  "already-applied": "#C6EFCE",
  overwritten: "#FFEB9C",
  rejected: "#FFC7CE",
  invalid: "#FFC7CE",
  check: "#FFEB9C",
  conflict: "#FFEB9C",
  "not-sent": "#FFEB9C",
  unconfirmed: "#FFEB9C",
};

/** Each outcome as the status cell and the taskpane's list of rows name it. */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  applied: "Applied",
  "already-applied": "Already applied",
  overwritten: "Changed by someone else",
  rejected: "Rejected by the service",
  invalid: "Not sent, fix the row",
  check: "Not sent, check the row",
  conflict: "Conflict, not sent",
  "not-sent": "Not sent",
  unconfirmed: "Unconfirmed",
};

const stamp = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * The text of a row's status cell.
 * @internal outcome tests check each outcome's words directly.
 */
export function statusText(r: RowResult): string {
  // A row gone from its query keeps the mark Refresh gave it, so the next Preview still knows it is gone.
  if (r.message === GONE_EDIT_MESSAGE) {
    return `${REMOVED_NOTE_PREFIX} for this table's query (${stamp(r.at)}): your edit was not sent. Refresh to see whether it is back, or load a query that returns it and edit it there.`;
  }
  const head = `${OUTCOME_LABELS[r.outcome]} ${stamp(r.at)}`;
  if (r.outcome === "applied") return `${head}: ${r.from} → ${r.to}${r.message ? `. ${r.message}` : ""}`;
  if (r.outcome === "already-applied") return `${head}: the server already had ${r.to} with these values; nothing sent.${r.message ? ` ${r.message}` : ""}`;
  return `${head}: ${r.message}`;
}

/** Outcomes whose server values the row and the snapshot take. */
const TAKES_SERVER: ReadonlySet<Outcome> = new Set(["applied", "already-applied", "overwritten"]);

export class OutcomeWriter {
  private pending: RowResult[] = [];
  private lastFlush: number;
  private running: Promise<void> | null = null;
  /** The first failure to write; the run stops sending when set. */
  failure: Error | null = null;

  /** A cell value from the server, with any echo of the key removed (the key never enters the workbook). */
  private readonly safe: (value: CellValue) => CellValue;

  constructor(
    private readonly workbook: Workbook,
    private readonly table: SyncTable,
    private readonly journal: JournalWriter,
    private readonly redact: (text: string) => string,
    private readonly clock: () => number,
    private readonly everyMs = 1000,
  ) {
    this.lastFlush = clock();
    this.safe = (value) => (typeof value === "string" ? redact(value) : value);
  }

  /** A row decided (or decided again); written with the next batch, which starts when a batch is due. */
  add(result: RowResult): void {
    this.pending.push(result);
    if (!this.running && this.clock() - this.lastFlush >= this.everyMs) void this.flush().catch(() => undefined);
  }

  /** Writes everything pending; one batch at a time. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    this.lastFlush = this.clock();
    const batch = this.pending;
    this.pending = [];
    this.running = this.write(batch).catch((error: Error) => {
      this.failure ??= error;
      throw error;
    }).finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async write(batch: RowResult[]): Promise<void> {
    if (batch.length > 0) {
      const latest = new Map<string, RowResult>();
      const idless: RowResult[] = [];
      for (const r of batch) {
        if (r.id) latest.set(r.id, r);
        else idless.push(r);
      }
      const { headers } = this.table;
      const ids = await this.workbook.readColumns(this.table.tableName, [headers.id]);
      if (!ids) throw tableGone(this.table.tableName, "outcomes could not be written");
      const rowsOf = new Map<string, number[]>();
      (ids.columns.get(headers.id) ?? []).forEach((cell, row) => {
        const id = String(cell ?? "").trim();
        if (latest.has(id)) rowsOf.set(id, [...(rowsOf.get(id) ?? []), row]);
      });
      const at = (key: keyof typeof headers) => ids.header.indexOf(headers[key]);
      const cells: CellWrite[] = [];
      const snapshot: Snapshot = new Map();
      // Updated at is one of the service's cells the snapshot fingerprints: its new value's fingerprint follows.
      const layout = this.table.query.source.columns;
      const updatedPlace = hashedPlaces(layout).indexOf(layout.findIndex((c) => c.key === "updated_at"));
      const fingerprints = new Map<string, Map<number, CellValue>>();
      for (const r of [...latest.values(), ...idless]) {
        const rows = r.id ? (rowsOf.get(r.id) ?? []) : r.rows;
        for (const row of rows) {
          cells.push({ row, column: at(STATUS_KEY), value: this.redact(statusText(r)), fill: OUTCOME_FILLS[r.outcome] });
          if (!r.server || !TAKES_SERVER.has(r.outcome)) continue;
          // The row now holds what the server holds: the preview's highlight of the edited cells goes.
          for (const key of TRACKED_KEYS) {
            cells.push({ row, column: at(key), value: this.safe(key === "paid_at" ? toCell("timestamp", r.server[key]) : r.server[key]), fill: EDITABLE_FILL });
          }
          if (headers.updated_at && r.server.updated_at) {
            const value = toCell("timestamp", r.server.updated_at);
            cells.push({ row, column: at("updated_at"), value });
            if (updatedPlace >= 0) fingerprints.set(r.id, new Map([[updatedPlace, value]]));
          }
        }
        if (r.server && TAKES_SERVER.has(r.outcome)) {
          const { updated_at: _ignored, ...tracked } = r.server;
          // The snapshot is in the workbook too: what the server echoes passes the redaction there as well.
          snapshot.set(r.id, { state: this.redact(tracked.state), accounted_id: this.redact(tracked.accounted_id), paid_id: this.redact(tracked.paid_id), paid_at: this.redact(tracked.paid_at) });
        }
      }
      const valid = cells.filter((c) => c.column >= 0);
      if (valid.length > 0) await this.workbook.writeCells(this.table.tableName, valid);
      if (snapshot.size > 0) await updateSnapshotRows(this.workbook, this.table.tableName, this.table.snapshot, snapshot);
      if (fingerprints.size > 0) await updateFingerprints(this.workbook, this.table.tableName, this.table.snapshot, fingerprints);
    }
    await this.journal.flush();
  }
}
