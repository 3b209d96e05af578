/**
 * The journal sheet, written ahead: a PATCH's "sending" line is in the workbook before the PATCH leaves,
 * and the answer's line follows. Lines queued by concurrent senders go in one append; appends never
 * overlap. Every text passes the client's redaction, so the key never lands in the workbook.
 * Appends run one after another on a SerialQueue (sheets/port/serial-queue.ts); what the queue does not do is kept
 * here: a flush not yet started is shared by every caller until it starts (its lines go in one append), and
 * the first append of a writer also waits its turn among every writer's first appends (appendCreating).
 */
import type { TrackedResource } from "../domain";
import { NUMBER_FORMATS, toCell, type AppendWrite, type CellValue, type Workbook } from "../sheets";
import { SerialQueue } from "../sheets/port/serial-queue";
import type { JournalEntry, JournalRequest } from "./outcome";

/** @internal sync tests read the journal by it; the workbench page (a development entry) shows it. */
export const JOURNAL_TABLE = "SpendSyncJournal";
/** @internal journal-race.test.ts checks a race leaves one journal sheet of this name. */
export const JOURNAL_SHEET = "Spend Sync journal";
/**
 * "Request" says what each line records, so that an HTTP status is never read as another request's: a PATCH
 * (its "sending" line and its answer), a read of the record (a GET: nothing sent on it), or none. Added in
 * issue 24: a conflict found by the read before the PATCH showed "HTTP status 200" beside the fields the row
 * would have sent, as though they had been. A journal of the 12 columns before it stays as it is (journalPlace).
 * "Fields sent" and "Message" are words a person reads (the columns' names, never JSON); "Exact request", added in
 * issue 43, keeps the request as it left (method, path, JSON body) for whoever must check it.
 * @internal journal tests build an old layout and read lines by it.
 */
export const JOURNAL_HEADER = [
  "Time (UTC)", "Run", "By", "Table", "Resource", "Record ID", "From", "To", "Request", "Fields sent", "HTTP status", "Outcome", "Message", "Exact request",
];
const FORMATS = [NUMBER_FORMATS.timestamp, "@", "@", "@", "@", "@", "@", "@", "@", "@", NUMBER_FORMATS.integer, "@", "@", "@"];

/** The Request column's words. */
const REQUEST_WORDS: Record<JournalRequest, string> = { PATCH: "PATCH", read: "read (GET)", none: "none" };

export interface JournalContext {
  runId: string;
  /** Who ran the sync (the name set in the taskpane, or the Office identity). */
  by: string;
  tableName: string;
  resource: TrackedResource;
  /** Removes secrets from a text (the client's redaction). */
  redact: (text: string) => string;
}

/**
 * A journal line: every text passes the redaction, ids and states included (a server may echo anything).
 * @internal journal-writer-appends-one-at-a-time.test.ts checks one line's redaction directly.
 */
export function journalRow(c: JournalContext, e: JournalEntry): CellValue[] {
  const r = c.redact;
  return [
    toCell("timestamp", e.at.toISOString()), r(c.runId), r(c.by), r(c.tableName), c.resource, r(e.id), r(e.from), r(e.to), REQUEST_WORDS[e.request], r(e.sent),
    e.httpStatus ?? "", r(e.outcome), r(e.message), r(e.exact ?? ""),
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
 * @internal journal-writer-appends-one-at-a-time.test.ts checks where lines go directly.
 */
export async function journalPlace(workbook: Workbook): Promise<JournalPlace> {
  const existing = await workbook.readColumns(JOURNAL_TABLE, []);
  if (!existing || existing.header.join("\u0000") === JOURNAL_HEADER.join("\u0000")) return { sheetName: JOURNAL_SHEET, tableName: JOURNAL_TABLE };
  return { sheetName: `${JOURNAL_SHEET} (${JOURNAL_HEADER.length} columns)`, tableName: `${JOURNAL_TABLE}_${JOURNAL_HEADER.length}` };
}

/**
 * Journal appends that may create the journal, one at a time, in the order they were asked for. Two runs that
 * both find no journal (two tables synced at once, the ribbon's run beside the taskpane's) would each create
 * it, and the second creation fails ("sheet … already exists"): issue 25 lost 48 rows to that. Here the
 * second waits for the first and then finds the journal there to append to. One chain for the whole runtime,
 * not one per Workbook object: an add-in runtime serves one workbook (Office starts one per document), and two
 * Workbook objects over its one Excel must wait for each other too.
 */
const creations = new SerialQueue();

/**
 * Appends lines to a journal that may not exist yet: after any creation under way, and as the next one. A
 * creation that fails because the journal appeared meanwhile (another add-in runtime at work on the same
 * workbook: a co-author's) is a reason to append to it, once.
 */
async function appendCreating(workbook: Workbook, write: AppendWrite): Promise<void> {
  await creations.run(async () => {
    try {
      await workbook.appendRows(write);
    } catch (error) {
      if (!(await workbook.readColumns(write.tableName, []).catch(() => null))) throw error;
      await workbook.appendRows(write);
    }
  });
}

export class JournalWriter {
  private queued: CellValue[][] = [];
  private place: Promise<JournalPlace> | null = null;
  /** The flush queued and not yet started: callers until it starts share it. */
  private next: Promise<void> | null = null;
  private readonly appends = new SerialQueue();
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
    const run = this.appends.run(async () => {
      this.next = null;
      const rows = this.queued;
      this.queued = [];
      if (rows.length === 0) return;
      this.place ??= journalPlace(this.workbook).catch((error: unknown) => {
        this.place = null; // asked again at the next flush
        throw error;
      });
      const { sheetName, tableName } = await this.place;
      const write = { sheetName, tableName, header: JOURNAL_HEADER, rows, numberFormats: FORMATS };
      // Until this writer has appended once, the journal may be missing and its append may create it.
      if (this.written === 0) await appendCreating(this.workbook, write);
      else await this.workbook.appendRows(write);
      this.written += rows.length;
    });
    this.next = run;
    return run;
  }
}
