/**
 * The journal sheet, written ahead: a PATCH's "sending" line is in the workbook before the PATCH leaves,
 * and the answer's line follows. Lines queued by concurrent senders go in one append; appends never
 * overlap. Every text passes the client's redaction, so the key never lands in the workbook.
 */
import type { TrackedResource } from "../domain";
import { NUMBER_FORMATS, toCell, type CellValue, type Workbook } from "../sheets";
import type { JournalEntry } from "./outcome";

export const JOURNAL_TABLE = "SpendSyncJournal";
export const JOURNAL_SHEET = "Spend Sync journal";
export const JOURNAL_HEADER = [
  "Time (UTC)", "Run", "By", "Table", "Resource", "Record ID", "From", "To", "Fields sent", "HTTP status", "Outcome", "Message",
];
const FORMATS = [NUMBER_FORMATS.timestamp, "@", "@", "@", "@", "@", "@", "@", "@", NUMBER_FORMATS.integer, "@", "@"];

export interface JournalContext {
  runId: string;
  /** Who ran the sync (the name set in the taskpane, or the Office identity). */
  by: string;
  tableName: string;
  resource: TrackedResource;
  /** Removes secrets from a text (the client's redaction). */
  redact: (text: string) => string;
}

/** A journal line: every text passes the redaction, ids and states included (a server may echo anything). */
export function journalRow(c: JournalContext, e: JournalEntry): CellValue[] {
  const r = c.redact;
  return [
    toCell("timestamp", e.at.toISOString()), r(c.runId), r(c.by), r(c.tableName), c.resource, r(e.id), r(e.from), r(e.to), r(e.sent),
    e.httpStatus ?? "", r(e.outcome), r(e.message),
  ];
}

/** Where new lines go: the journal, or, beside a journal of an older layout (kept as it is), its successor. */
interface JournalPlace {
  sheetName: string;
  tableName: string;
}

/**
 * A workbook may hold a journal written by an older version, with other columns: its lines stay untouched
 * (they are the record of earlier runs) and new lines go to a journal of today's layout beside it.
 */
export async function journalPlace(workbook: Workbook): Promise<JournalPlace> {
  const existing = await workbook.readColumns(JOURNAL_TABLE, []);
  if (!existing || existing.header.join("\u0000") === JOURNAL_HEADER.join("\u0000")) return { sheetName: JOURNAL_SHEET, tableName: JOURNAL_TABLE };
  return { sheetName: `${JOURNAL_SHEET} (${JOURNAL_HEADER.length} columns)`, tableName: `${JOURNAL_TABLE}_${JOURNAL_HEADER.length}` };
}

export class JournalWriter {
  private queued: CellValue[][] = [];
  private place: Promise<JournalPlace> | null = null;
  private next: Promise<void> | null = null;
  private tail: Promise<void> = Promise.resolve();
  /** Lines written so far. */
  written = 0;

  constructor(private readonly workbook: Workbook, readonly context: JournalContext) {}

  /** Queues a line; it is written with the next flush. */
  add(entry: JournalEntry): void {
    this.queued.push(journalRow(this.context, entry));
  }

  /** Queues lines and resolves once they are in the workbook (rejects if they could not be written). */
  async ahead(entries: JournalEntry[]): Promise<void> {
    for (const e of entries) this.add(e);
    await this.flush();
  }

  /** Writes every queued line; concurrent callers share one append, and appends run one after another. */
  flush(): Promise<void> {
    if (this.next) return this.next;
    const run = this.tail.then(async () => {
      this.next = null;
      const rows = this.queued;
      this.queued = [];
      if (rows.length === 0) return;
      this.place ??= journalPlace(this.workbook).catch((error: unknown) => {
        this.place = null; // asked again at the next flush
        throw error;
      });
      const { sheetName, tableName } = await this.place;
      await this.workbook.appendRows({ sheetName, tableName, header: JOURNAL_HEADER, rows, numberFormats: FORMATS });
      this.written += rows.length;
    });
    this.next = run;
    this.tail = run.catch(() => undefined);
    return run;
  }
}
