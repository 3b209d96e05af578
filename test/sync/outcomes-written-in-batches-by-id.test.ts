/**
 * The outcome writer over a stand-in workbook that records every call (write-outcomes.ts): batches start once
 * `everyMs` has passed since the last, rows are found again by id (a table sorted during the run), each decided row
 * gets its status and colour, the rows whose outcome takes the server's values get them (redacted, editable fill)
 * and so do their snapshot rows, a column deleted is skipped, a table gone stops the run, and the journal follows
 * each batch. The flow tests (outcome-batches, workbook-write-fails) run the same rules in the in-memory Excel.
 */
import {
  EDITABLE_FILL, HASH_CHARS, STATUS_KEY, TRACKED_KEYS, Query, cellHash, hashedPlaces, toCell,
  type CellValue, type CellWrite, type ColumnsRead, type LoadParams, type SnapshotRead, type Workbook,
} from "../../src/sheets";
import { type JournalWriter, type RowResult, type SyncTable } from "../../src/sync";
import { OUTCOME_FILLS, statusText } from "../../src/sync/write-outcomes";
import { OutcomeWriter } from "../../src/sync/write-outcomes";
import { settle } from "../support/settle";

const AT = new Date("2026-11-21T10:00:00Z");
const redact = (text: string) => text.replaceAll("sk_live_SECRET", "[key]");

function tableOf(resource: "expenses" | "allowances", ids: string[], rowOf: Map<string, number>) {
  const params = { resource, enterpriseId: "ent-1", subsidiaryId: "sub-1" } as LoadParams;
  const query = Query.parse(params);
  const layout = query.source.columns;
  const headers = Object.fromEntries(layout.map((c) => [c.key, c.header])) as SyncTable["headers"];
  const snapshot: SnapshotRead = { snapshot: new Map(), rowOf, readOnly: new Map(), digests: null, rowCount: rowOf.size };
  const table = { tableName: "T1", resource: resource === "expenses" ? "expense" : "allowance", subsidiaryId: "sub-1", params, query, headers, snapshot, rows: [] } as unknown as SyncTable;
  return { table, header: layout.map((c) => c.header), headers, ids };
}

/** A stand-in workbook holding table T1 with `ids` in its id column (null: the table is gone). */
function standIn(t: ReturnType<typeof tableOf> | null, fingerprints: string[] = []) {
  const calls: string[] = [];
  const writes: { table: string; cells: CellWrite[] }[] = [];
  const workbook = {
    async readColumns(tableName: string, headers: readonly string[]): Promise<ColumnsRead | null> {
      calls.push(`read ${tableName} ${headers.join(",")}`);
      if (!t) return null;
      const columns = new Map<string, CellValue[]>(headers.includes(t.headers.id) ? [[t.headers.id, t.ids]] : []);
      return { sheetName: "S", header: t.header, rowCount: t.ids.length, columns };
    },
    async readRows(tableName: string, rows: readonly number[]): Promise<CellValue[][]> {
      calls.push(`readRows ${tableName} ${rows.join(",")}`);
      return rows.map((r) => [fingerprints[r] ?? ""]);
    },
    async writeCells(tableName: string, cells: CellWrite[]): Promise<void> {
      calls.push(`write ${tableName}`);
      writes.push({ table: tableName, cells });
    },
  } as unknown as Workbook;
  const journal = { flush: async () => void calls.push("journal") } as unknown as JournalWriter;
  return { workbook, journal, calls, writes };
}

/** The outcome writer of `t` on stand-in `s`; its clock never moves, so only the test's flush() writes a batch. */
const writerOn = (t: ReturnType<typeof tableOf>, s: ReturnType<typeof standIn>) => new OutcomeWriter(s.workbook, t.table, s.journal, redact, () => 0);

const result = (id: string, outcome: RowResult["outcome"], extra: Partial<RowResult> = {}): RowResult =>
  ({ id, rows: [0], outcome, message: "why", from: "approved", to: "accounted", at: AT, ...extra });
const server = (extra: Partial<RowResult["server"] & object> = {}) => ({ state: "accounted", accounted_id: "ACC-1", paid_id: "", paid_at: "", ...extra });

describe("batches", () => {
  it("a row decided before everyMs has passed waits for the next batch; at everyMs a batch starts", async () => {
    const t = tableOf("expenses", ["a", "b"], new Map([["a", 0], ["b", 1]]));
    const s = standIn(t);
    let clock = 1_000;
    const writer = new OutcomeWriter(s.workbook, t.table, s.journal, redact, () => clock, 500);
    clock = 1_499;
    writer.add(result("a", "rejected"));
    await settle(1);
    expect(s.calls).toEqual([]);
    clock = 1_500;
    writer.add(result("b", "rejected"));
    await settle(5);
    expect(s.calls).toEqual(["read T1 Expense ID", "write T1", "journal"]);
    expect(s.writes[0].cells.map((c) => c.row)).toEqual([0, 1]);
  });

  it("once a batch ran, the next waits everyMs from it", async () => {
    const t = tableOf("expenses", ["a", "b"], new Map([["a", 0], ["b", 1]]));
    const s = standIn(t);
    let clock = 0;
    const writer = new OutcomeWriter(s.workbook, t.table, s.journal, redact, () => clock);
    clock = 1000;
    await writer.flush();
    clock = 1999;
    writer.add(result("a", "rejected"));
    await settle(1);
    expect(s.calls).toEqual(["journal"]);
  });

  it("one batch at a time: a flush asked during a batch starts after it", async () => {
    const t = tableOf("expenses", ["a", "b"], new Map([["a", 0], ["b", 1]]));
    const s = standIn(t);
    let release!: () => void;
    const write = s.workbook.writeCells.bind(s.workbook);
    let n = 0;
    (s.workbook as { writeCells: typeof write }).writeCells = async (name, cells) => {
      if (++n === 1) await new Promise<void>((r) => (release = r));
      return write(name, cells);
    };
    const writer = writerOn(t, s);
    writer.add(result("a", "rejected"));
    const first = writer.flush();
    await settle(1);
    writer.add(result("b", "rejected"));
    const second = writer.flush();
    await settle(5);
    expect(s.calls).toEqual(["read T1 Expense ID"]); // the first batch's write is held in Excel
    release();
    await Promise.all([first, second]);
    expect(s.writes.map((w) => w.cells.map((c) => c.row))).toEqual([[0], [1]]);
  });
});

describe("what a batch writes", () => {
  const statusAt = (t: ReturnType<typeof tableOf>) => t.header.indexOf(t.headers[STATUS_KEY]);

  it("finds each row by id where it is now; a record on two rows gets both; the latest decision wins", async () => {
    const t = tableOf("expenses", ["c", "a", "b", "a"], new Map([["a", 0], ["b", 1], ["c", 2]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "not-sent", { rows: [0] }));
    writer.add(result("b", "rejected", { rows: [1] }));
    writer.add(result("a", "rejected", { rows: [0], message: "decided again" }));
    await writer.flush();
    const status = statusAt(t);
    expect(s.writes).toEqual([{
      table: "T1",
      cells: [
        { row: 1, column: status, value: statusText(result("a", "rejected", { message: "decided again" })), fill: OUTCOME_FILLS.rejected },
        { row: 3, column: status, value: statusText(result("a", "rejected", { message: "decided again" })), fill: OUTCOME_FILLS.rejected },
        { row: 2, column: status, value: statusText(result("b", "rejected")), fill: OUTCOME_FILLS.rejected },
      ],
    }]);
  });

  it("a row without an id is written where the plan found it; a record no longer in the table, nowhere", async () => {
    const t = tableOf("expenses", ["a", "", "b"], new Map([["a", 0], ["b", 2]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("", "invalid", { rows: [1] }));
    writer.add(result("gone", "rejected", { rows: [5] }));
    await writer.flush();
    expect(s.writes[0].cells.map((c) => [c.row, c.fill])).toEqual([[1, OUTCOME_FILLS.invalid]]);
  });

  it("two rows without an id each get their own status", async () => {
    const t = tableOf("expenses", ["", "a", ""], new Map([["a", 1]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("", "invalid", { rows: [0], message: "first" }));
    writer.add(result("", "invalid", { rows: [2], message: "second" }));
    await writer.flush();
    expect(s.writes[0].cells.map((c) => [c.row, c.value])).toEqual([[0, statusText(result("", "invalid", { message: "first" }))], [2, statusText(result("", "invalid", { message: "second" }))]]);
  });

  it("only records no longer in the table: nothing is written to the table, the journal still follows", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("gone", "rejected"));
    await writer.flush();
    expect(s.calls).toEqual(["read T1 Expense ID", "journal"]);
  });

  it("a Status column the user moved to the front is written there", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    t.header.splice(t.header.indexOf(t.headers[STATUS_KEY]), 1);
    t.header.unshift(t.headers[STATUS_KEY]);
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "rejected"));
    await writer.flush();
    expect(s.writes[0].cells.map((c) => c.column)).toEqual([0]);
  });

  it("an id from the server that looks like a date-time stays text; only Paid at is a date-time", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "applied", { server: server({ accounted_id: "2026-11-21T10:00:00Z", paid_id: "2026-11-22" }) }));
    await writer.flush();
    expect(s.writes[0].cells.slice(1).map((c) => c.value)).toEqual(["accounted", "2026-11-21T10:00:00Z", "2026-11-22", ""]);
  });

  it("an id cell with spaces around it is the record's", async () => {
    const t = tableOf("expenses", [" a "], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "rejected"));
    await writer.flush();
    expect(s.writes[0].cells.map((c) => c.row)).toEqual([0]);
  });

  it.each(["applied", "already-applied", "overwritten"] as const)("%s: the row and its snapshot row take the server's values, redacted, the edit highlight gone", async (outcome) => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", outcome, { message: "", server: server({ paid_id: "sk_live_SECRET", paid_at: "2026-11-21T10:00:00Z", state: "paid" }) }));
    await writer.flush();
    const [row, snapshot] = s.writes;
    const at = (key: string) => t.header.indexOf(t.headers[key as keyof typeof t.headers]);
    expect(row.table).toBe("T1");
    expect(row.cells.slice(1)).toEqual([
      { row: 0, column: at("state"), value: "paid", fill: EDITABLE_FILL },
      { row: 0, column: at("accounted_id"), value: "ACC-1", fill: EDITABLE_FILL },
      { row: 0, column: at("paid_id"), value: "[key]", fill: EDITABLE_FILL },
      { row: 0, column: at("paid_at"), value: toCell("timestamp", "2026-11-21T10:00:00Z"), fill: EDITABLE_FILL },
    ]);
    expect(snapshot).toEqual({
      table: "Snap_T1",
      cells: TRACKED_KEYS.map((key, i) => ({ row: 0, column: i + 1, value: { state: "paid", accounted_id: "ACC-1", paid_id: "[key]", paid_at: "2026-11-21T10:00:00Z" }[key] })),
    });
    expect(t.table.snapshot.snapshot.get("a")).toEqual({ state: "paid", accounted_id: "ACC-1", paid_id: "[key]", paid_at: "2026-11-21T10:00:00Z" });
    expect(s.calls.at(-1)).toBe("journal");
  });

  it.each(["conflict", "rejected", "not-sent", "unconfirmed"] as const)("%s: the server's values are shown in the status only; cells and snapshot stay", async (outcome) => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", outcome, { server: server() }));
    await writer.flush();
    expect(s.writes).toHaveLength(1);
    expect(s.writes[0].cells).toHaveLength(1);
    expect(t.table.snapshot.snapshot.size).toBe(0);
  });

  it("a status with the key in it is redacted", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "rejected", { message: "bad key sk_live_SECRET" }));
    await writer.flush();
    expect(s.writes[0].cells[0].value).toMatch(/: bad key \[key\]$/);
  });

  it("a column the user deleted is not written; the others are", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    t.header.splice(t.header.indexOf(t.headers.paid_id), 1);
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "applied", { server: server() }));
    await writer.flush();
    expect(s.writes[0].cells.map((c) => c.column)).not.toContain(-1);
    expect(s.writes[0].cells).toHaveLength(4);
  });

  it("nothing decided: only the journal is flushed", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    await writerOn(t, s).flush();
    expect(s.calls).toEqual(["journal"]);
  });

  it("the table gone: the batch fails saying so, the first failure is kept, and the journal is not flushed", async () => {
    const t = tableOf("expenses", ["a"], new Map([["a", 0]]));
    const s = standIn(null);
    const writer = writerOn(t, s);
    writer.add(result("a", "rejected"));
    await expect(writer.flush()).rejects.toThrow("The table T1 is gone from the workbook; outcomes could not be written.");
    expect(writer.failure?.message).toBe("The table T1 is gone from the workbook; outcomes could not be written.");
    writer.add(result("a", "applied"));
    const second = new Error("second");
    (s.workbook as unknown as { readColumns: () => Promise<never> }).readColumns = () => Promise.reject(second);
    await expect(writer.flush()).rejects.toBe(second);
    expect(writer.failure?.message).toBe("The table T1 is gone from the workbook; outcomes could not be written.");
    expect(s.calls).not.toContain("journal");
  });
});

describe("an allowance's Updated at", () => {
  it("is written from the PATCH's answer, and its fingerprint follows in the snapshot", async () => {
    const t = tableOf("allowances", ["a"], new Map([["a", 0]]));
    const layout = t.table.query.source.columns;
    const hashed = hashedPlaces(layout);
    const place = hashed.indexOf(layout.findIndex((c) => c.key === "updated_at"));
    expect(place).toBeGreaterThan(0);
    const before = "x".repeat(HASH_CHARS * hashed.length);
    const s = standIn(t, [before]);
    const writer = writerOn(t, s);
    writer.add(result("a", "applied", { message: "", server: server({ updated_at: "2026-11-21T10:00:01Z" }) }));
    await writer.flush();
    const updated = toCell("timestamp", "2026-11-21T10:00:01Z");
    expect(s.writes[0].cells.at(-1)).toEqual({ row: 0, column: t.header.indexOf(t.headers.updated_at!), value: updated });
    const after = before.slice(0, place * HASH_CHARS) + cellHash(updated) + before.slice((place + 1) * HASH_CHARS);
    expect(s.writes.at(-1)?.cells.map((c) => c.value)).toContain(after);
    expect(s.calls).toEqual(["read T1 Allowance ID", "write T1", "write Snap_T1", "readRows Snap_T1 0", "write Snap_T1", "journal"]);
  });

  it("an answer without it writes no Updated at and no fingerprint", async () => {
    const t = tableOf("allowances", ["a"], new Map([["a", 0]]));
    const s = standIn(t);
    const writer = writerOn(t, s);
    writer.add(result("a", "applied", { message: "", server: server() }));
    await writer.flush();
    expect(s.writes[0].cells).toHaveLength(5);
    expect(s.calls).toEqual(["read T1 Allowance ID", "write T1", "write Snap_T1", "journal"]);
  });
});
