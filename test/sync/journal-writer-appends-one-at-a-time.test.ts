/**
 * The journal writer over a stand-in workbook that records every call (journal.ts): each line's columns and
 * their redaction, where a journal of another layout sends new lines, concurrent lines sharing one append,
 * appends one after another, a place that failed asked again, and a creation that lost a race appended once
 * more. The flow tests (journal-order, journal-race, journal-upgrade) run the same rules in the in-memory Excel.
 */
import { NUMBER_FORMATS, toCell, type AppendWrite, type ColumnsRead, type Workbook } from "../../src/sheets";
import { JOURNAL_HEADER, JournalWriter, journalPlace, journalRow, type JournalContext, type JournalEntry } from "../../src/sync";
import { settle } from "../support/settle";

const AT = new Date("2026-11-21T10:00:00Z");
const entry = (n: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  at: AT, id: `id-${n}`, from: "approved", to: "accounted", request: "PATCH", sent: "State accounted", exact: 'PATCH /p/expenses/id/ {"state":"accounted"}', httpStatus: 200, outcome: "applied", message: `m${n}`, ...extra,
});
const context: JournalContext = { runId: "run-1", by: "Ana", tableName: "Expenses_Sub1", resource: "expense", redact: (t) => t };

interface Call {
  kind: "read" | "append";
  table: string;
  sheet?: string;
  ids?: string[];
}

/** A workbook stand-in: `header` is the journal's (null: none yet); appends answer through `appendAnswer`. */
function standIn(options: { header?: string[] | null; appendAnswer?: (n: number, write: AppendWrite) => Promise<void>; readFails?: number } = {}) {
  const calls: Call[] = [];
  const writes: AppendWrite[] = [];
  const held: (() => void)[] = [];
  let header = options.header === undefined ? null : options.header;
  let appends = 0;
  let readFailures = options.readFails ?? 0;
  const workbook = {
    async readColumns(tableName: string): Promise<ColumnsRead | null> {
      calls.push({ kind: "read", table: tableName });
      if (readFailures > 0) {
        readFailures--;
        throw new Error("Excel is busy");
      }
      return header ? { sheetName: "s", header, rowCount: 0, columns: new Map() } : null;
    },
    async appendRows(write: AppendWrite): Promise<void> {
      writes.push(write);
      calls.push({ kind: "append", table: write.tableName, sheet: write.sheetName, ids: write.rows.map((r) => String(r[5])) });
      const n = ++appends;
      await (options.appendAnswer ?? (() => Promise.resolve()))(n, write);
      header ??= [...write.header];
    },
  } as unknown as Workbook;
  return { workbook, calls, writes, held, setHeader: (h: string[] | null) => (header = h) };
}

describe("a journal line", () => {
  it("has every column in order, each text redacted, the resource and request words as they are", () => {
    const redacted: JournalContext = { ...context, redact: (t) => `<${t}>` };
    expect(journalRow(redacted, entry(1))).toEqual([
      toCell("timestamp", "2026-11-21T10:00:00.000Z"), "<run-1>", "<Ana>", "<Expenses_Sub1>", "expense", "<id-1>", "<approved>", "<accounted>", "PATCH",
      "<State accounted>", 200, "<applied>", "<m1>", '<PATCH /p/expenses/id/ {"state":"accounted"}>',
    ]);
    expect(JOURNAL_HEADER).toHaveLength(14);
    // A line that records no request has an empty exact request.
    expect(journalRow(context, entry(1, { request: "none", sent: "", exact: undefined }))[13]).toBe("");
  });

  it("a read's line says 'read (GET)', a decision's 'none'; no status is an empty cell", () => {
    expect(journalRow(context, entry(1, { request: "read", httpStatus: null }))[8]).toBe("read (GET)");
    expect(journalRow(context, entry(1, { request: "read", httpStatus: null }))[10]).toBe("");
    expect(journalRow(context, entry(1, { request: "none" }))[8]).toBe("none");
  });
});

describe("the journal's columns", () => {
  it("are written with their header and a format each: the time as a date-time, the status as a whole number, every other column as text", async () => {
    const s = standIn();
    await new JournalWriter(s.workbook, context).ahead([entry(1)]);
    expect(s.writes).toHaveLength(1);
    const { header, numberFormats, sheetName, tableName } = s.writes[0];
    expect(header).toEqual([
      "Time (UTC)", "Run", "By", "Table", "Resource", "Record ID", "From", "To", "Request", "Fields sent", "HTTP status", "Outcome", "Message", "Exact request",
    ]);
    expect(numberFormats).toEqual([NUMBER_FORMATS.timestamp, "@", "@", "@", "@", "@", "@", "@", "@", "@", NUMBER_FORMATS.integer, "@", "@", "@"]);
    expect([sheetName, tableName]).toEqual(["Spend Sync journal", "SpendSyncJournal"]);
  });
});

describe("where new lines go", () => {
  it("to the journal when there is none yet, or one of today's layout", async () => {
    for (const header of [null, [...JOURNAL_HEADER]]) {
      expect(await journalPlace(standIn({ header }).workbook)).toEqual({ sheetName: "Spend Sync journal", tableName: "SpendSyncJournal" });
    }
  });

  it("beside a journal of an older layout: a journal named for its column count", async () => {
    const older = JOURNAL_HEADER.filter((h) => h !== "Request");
    expect(await journalPlace(standIn({ header: older }).workbook)).toEqual({ sheetName: "Spend Sync journal (14 columns)", tableName: "SpendSyncJournal_14" });
    expect(await journalPlace(standIn({ header: [...JOURNAL_HEADER, "Note"] }).workbook)).toEqual({ sheetName: "Spend Sync journal (14 columns)", tableName: "SpendSyncJournal_14" });
  });
});

describe("the writer", () => {
  it("writes nothing when nothing is queued", async () => {
    const s = standIn();
    const writer = new JournalWriter(s.workbook, context);
    await writer.flush();
    expect([s.calls, writer.written]).toEqual([[], 0]);
  });

  it("lines queued while an append is in Excel go together in the next one, after it", async () => {
    let release!: () => void;
    const s = standIn({ appendAnswer: (n) => (n === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve()) });
    const writer = new JournalWriter(s.workbook, context);
    const first = writer.ahead([entry(1)]);
    await settle(1);
    const second = writer.ahead([entry(2)]);
    const third = writer.ahead([entry(3), entry(4)]);
    await settle(1);
    expect(s.calls.filter((c) => c.kind === "append").map((c) => c.ids)).toEqual([["id-1"]]);
    release();
    await Promise.all([first, second, third]);
    expect(s.calls.filter((c) => c.kind === "append").map((c) => c.ids)).toEqual([["id-1"], ["id-2", "id-3", "id-4"]]);
    expect(writer.written).toBe(4);
  });

  it("a shared append that fails rejects every caller whose lines it carried", async () => {
    let fail!: (error: Error) => void;
    const s = standIn({ header: [...JOURNAL_HEADER], appendAnswer: (n) => (n === 2 ? new Promise<void>((_, reject) => (fail = reject)) : Promise.resolve()) });
    const writer = new JournalWriter(s.workbook, context);
    await writer.ahead([entry(1)]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const appendRows = s.workbook.appendRows.bind(s.workbook);
    let n = 0;
    (s.workbook as { appendRows: typeof appendRows }).appendRows = async (w) => {
      if (++n === 1) await gate; // the second append leaves only once every caller has queued its lines
      return appendRows(w);
    };
    const second = writer.ahead([entry(2)]);
    const third = writer.ahead([entry(3)]);
    const settled = Promise.allSettled([second, third]);
    release();
    await settle(5);
    fail(new Error("sheet protected"));
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(s.calls.filter((c) => c.kind === "append").map((c) => c.ids)).toEqual([["id-1"], ["id-2", "id-3"]]);
  });

  it("asks where to write once, and again after that question failed (the failed flush's lines were refused to their callers)", async () => {
    const s = standIn({ readFails: 1 });
    const writer = new JournalWriter(s.workbook, context);
    await expect(writer.ahead([entry(1)])).rejects.toThrow("Excel is busy");
    await writer.ahead([entry(2)]);
    await writer.ahead([entry(3)]);
    expect(s.calls.map((c) => `${c.kind} ${c.ids?.join(",") ?? ""}`)).toEqual(["read ", "read ", "append id-2", "append id-3"]);
    expect(writer.written).toBe(2);
  });

  it("a failed append rejects its callers; the next flush still writes", async () => {
    const s = standIn({ header: [...JOURNAL_HEADER], appendAnswer: (n) => (n === 2 ? Promise.reject(new Error("sheet protected")) : Promise.resolve()) });
    const writer = new JournalWriter(s.workbook, context);
    await writer.ahead([entry(1)]);
    await expect(writer.ahead([entry(2)])).rejects.toThrow("sheet protected");
    await writer.ahead([entry(3)]);
    expect(s.calls.filter((c) => c.kind === "append").map((c) => c.ids)).toEqual([["id-1"], ["id-2"], ["id-3"]]);
    expect(writer.written).toBe(2);
  });

  it("a first append that failed because the journal appeared meanwhile is made once more; after the first, never", async () => {
    const s = standIn({
      appendAnswer: async (n) => {
        if (n === 1) {
          s.setHeader([...JOURNAL_HEADER]); // a co-author's runtime created it
          throw new Error("A sheet named 'Spend Sync journal' already exists");
        }
        if (n === 3) throw new Error("sheet protected");
      },
    });
    const writer = new JournalWriter(s.workbook, context);
    await writer.ahead([entry(1)]);
    expect(s.calls.map((c) => c.kind)).toEqual(["read", "append", "read", "append"]);
    await expect(writer.ahead([entry(2)])).rejects.toThrow("sheet protected");
    expect(s.calls.map((c) => c.kind)).toEqual(["read", "append", "read", "append", "append"]);
  });

  it("a first append that failed with no journal there rejects, and is not made again", async () => {
    const s = standIn({ appendAnswer: () => Promise.reject(new Error("Excel is out of memory")) });
    const writer = new JournalWriter(s.workbook, context);
    await expect(writer.ahead([entry(1)])).rejects.toThrow("Excel is out of memory");
    expect(s.calls.map((c) => c.kind)).toEqual(["read", "append", "read"]);
  });

  it("a first append whose check for the journal fails rejects with the append's error", async () => {
    const s = standIn({ appendAnswer: (n) => (n === 1 ? Promise.reject(new Error("append refused")) : Promise.resolve()) });
    const writer = new JournalWriter(s.workbook, context);
    const read = s.workbook.readColumns.bind(s.workbook);
    let reads = 0;
    (s.workbook as { readColumns: typeof read }).readColumns = (t, h) => (++reads === 2 ? Promise.reject(new Error("busy")) : read(t, h));
    await expect(writer.ahead([entry(1)])).rejects.toThrow("append refused");
  });

  it("two writers' first appends wait for each other: the second finds the journal the first created", async () => {
    let release!: () => void;
    const s = standIn({ appendAnswer: (n) => (n === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve()) });
    const a = new JournalWriter(s.workbook, context);
    const b = new JournalWriter(s.workbook, { ...context, tableName: "Allowances_Sub1" });
    const first = a.ahead([entry(1)]);
    await settle(1);
    const second = b.ahead([entry(2)]);
    await settle(5);
    expect(s.calls.filter((c) => c.kind === "append")).toHaveLength(1);
    release();
    await Promise.all([first, second]);
    expect(s.calls.filter((c) => c.kind === "append").map((c) => c.ids)).toEqual([["id-1"], ["id-2"]]);
  });
});
