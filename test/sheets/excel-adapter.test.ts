/** The Office.js adapter against the strict in-memory Excel: text safety, limits, cell edit mode, the user's own cells. */
import { NUMBER_FORMATS, toCell, type CellValue, type ColumnKind, type TableWrite } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { WAIT_NOTICE_MS } from "../../src/sheets/excel/runs";
import type { ExcelHost } from "../../src/sheets/excel/api";
import { CELL_TEXT_LIMIT, cutMarker, fitCell } from "../../src/sheets/port/cells";
import { EDITABLE_FILL } from "../../src/sheets/port/marks";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";
import { HOSTILE_TEXT } from "../support/hostile-text";

const KINDS: ColumnKind[] = ["id", "text", "integer", "number", "amount", "percent", "date", "timestamp", "boolean"];

function table(header: string[], rows: CellValue[][], extra: Partial<TableWrite> = {}): TableWrite {
  return {
    sheetName: "Data", tableName: "T", header, rows, numberFormats: header.map(() => "@"),
    editable: header.map(() => false), dropdowns: header.map(() => null), ...extra,
  };
}

/** A table's body rows as the person sees them (values, "" for an empty cell). */
function tableRows(excel: FakeExcel, name: string) {
  const t = excel.model.table(name)!;
  return Array.from({ length: t.area.rowCount - 1 }, (_, r) => Array.from({ length: t.area.columnCount }, (_, c) => t.sheet.cell(t.area.row + 1 + r, t.area.column + c)?.value ?? ""));
}

/** Every body cell of table T as the person sees it, and whether any holds a formula. */
function bodyOf(excel: FakeExcel, name = "T") {
  const t = excel.model.table(name)!;
  const rows = Array.from({ length: t.area.rowCount - 1 - (t.showTotals ? 1 : 0) }, (_, r) =>
    Array.from({ length: t.area.columnCount }, (_, c) => t.sheet.cell(t.area.row + 1 + r, t.area.column + c)));
  return { values: rows.map((r) => r.map((cell) => cell?.value ?? "")), formulas: rows.flat().filter((cell) => cell?.formula !== undefined).length, rows };
}

describe("service text stays exactly that text, in every column kind", () => {
  it(`${HOSTILE_TEXT.length} hostile strings in each of ${KINDS.length} column kinds: 0 formulas, 0 changed values; numbers and real dates stay typed`, async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const header = KINDS.map((k) => `${k} column`);
    const rows = HOSTILE_TEXT.map((text) => KINDS.map((kind) => toCell(kind, text)));
    rows.push(KINDS.map((kind) => toCell(kind, kind === "date" ? "2026-03-31" : kind === "timestamp" ? "2026-03-31T12:00:00Z" : -12.5)));
    await workbook.writeTable(table(header, rows, { numberFormats: KINDS.map((k) => NUMBER_FORMATS[k]) }));
    const body = bodyOf(excel);
    expect(body.formulas).toBe(0);
    // The one string of the corpus that is a real value of its column's type: a date in the date column.
    const typedAsDate = (kind: ColumnKind, text: string) => kind === "date" && text === "2026-11-01";
    HOSTILE_TEXT.forEach((text, r) => {
      expect(body.values[r]).toEqual(KINDS.map((kind) => (typedAsDate(kind, text) ? 46327 : fitCell(text))));
    });
    const typed = body.values[HOSTILE_TEXT.length];
    expect(typed[KINDS.indexOf("amount")]).toBe(-12.5);
    expect(typed[KINDS.indexOf("number")]).toBe(-12.5);
    expect(typed[KINDS.indexOf("date")]).toBe(46112);
    expect(typed[KINDS.indexOf("timestamp")]).toBe(46112.5);
    // And read back through the adapter, as Preview and Refresh see them.
    const read = await workbook.readTable("T");
    expect(read!.rows.slice(0, HOSTILE_TEXT.length)).toEqual(HOSTILE_TEXT.map((text) => KINDS.map((kind) => (typedAsDate(kind, text) ? 46327 : fitCell(text)))));
  });

  it("text over 32,767 characters is cut with a visible marker, not refused and not lost silently", async () => {
    const excel = new FakeExcel();
    const long = "é".repeat(40_000);
    await new ExcelWorkbook(excel).writeTable(table(["Description"], [[long]]));
    const value = String(bodyOf(excel).values[0][0]);
    expect(value).toHaveLength(CELL_TEXT_LIMIT);
    expect(value.endsWith(cutMarker(40_000))).toBe(true);
    expect(value.startsWith("é".repeat(32_000))).toBe(true);
  });

  it("writeCells keeps text from the server as text and sends one operation per run of adjacent rows, not per cell, whatever order the cells come in", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "Paid ID", "Status"], Array.from({ length: 100 }, (_, i) => [`id-${i}`, "", ""])));
    excel.resetStats();
    const rows = [...Array.from({ length: 40 }, (_, i) => i), ...Array.from({ length: 30 }, (_, i) => 60 + i)];
    await workbook.writeCells("T", [...rows].reverse().flatMap((row) => [
      { row, column: 1, value: HOSTILE_TEXT[row % 20] },
      { row, column: 2, value: `Applied ${row}`, fill: row < 20 ? "#C6EFCE" : "#FFC7CE" },
    ]));
    const body = bodyOf(excel);
    expect(body.formulas).toBe(0);
    for (const row of rows) expect(body.values[row].slice(1)).toEqual([HOSTILE_TEXT[row % 20], `Applied ${row}`]);
    expect(body.values[50]).toEqual(["id-50", "", ""]);
    expect(body.rows[5][2]?.fill).toBe("#C6EFCE");
    expect(body.rows[65][2]?.fill).toBe("#FFC7CE");
    // On the wire: 2 runs x 2 columns of values and 3 fill stretches, nothing else written.
    const writes = excel.stats.requests.flatMap((r) => r.calls).filter((call) => !call.startsWith("Query"));
    expect(writes.sort()).toEqual([...Array(4).fill("SetProperty ValuesAsJson"), ...Array(3).fill("SetProperty Color")].sort());
  });
});

describe("within Excel on the web's 5 MB limits, in UTF-8 bytes", () => {
  it("50,000 rows with CJK descriptions: no request and no response over 5 MB, every row back intact", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const header = ["ID", "Description", "Amount", "Date", "State"];
    const rows: CellValue[][] = Array.from({ length: 50_000 }, (_, i) => [`e-${i}`, `出張の経費精算 ${i} `.repeat(12), i * 1.25, 46000 + (i % 365), "approved"]);
    await workbook.writeTable(table(header, rows, { numberFormats: ["@", "@", "#,##0.00", "yyyy-mm-dd", "@"] }));
    expect(excel.stats.requestBytes.length).toBeGreaterThan(3);
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    const read = await workbook.readTable("T");
    expect(excel.stats.refusedResponses).toBe(0);
    expect(excel.stats.responseBytes.filter((b) => b > 1_000_000).length).toBeGreaterThan(3);
    expect(read!.rows).toEqual(rows);
    const columns = await workbook.readColumns("T", ["ID", "State", "Nope"]);
    expect([...columns!.columns.keys()]).toEqual(["ID", "State"]);
    expect(columns!.columns.get("ID")).toEqual(rows.map((r) => r[0]));
  }, 120_000);

  it("a long write reaches Excel one request at a time, in order; a failed request stops the ones behind it", async () => {
    const rows: CellValue[][] = Array.from({ length: 20_000 }, (_, i) => [`e-${i}`, `描述 ${i} `.repeat(20)]);
    /** An Excel whose syncs are logged (and whose `failAt`-th write request fails, as Excel refusing it would). */
    const logged = (failAt?: number) => {
      const excel = new FakeExcel(undefined, { latencyMs: 2 });
      const log: string[] = [];
      let sent = 0;
      const host: ExcelHost = {
        run: (options, batch) => excel.run(options, (context) => {
          const sync = context.sync.bind(context);
          context.sync = async <T>(pass?: T): Promise<T> => {
            const n = ++sent;
            log.push(`send ${n}`);
            if (n === failAt) throw Object.assign(new Error("refused"), { code: "InvalidArgument" });
            try {
              await sync();
            } finally {
              log.push(`back ${n}`); // answered, or refused (looking for a table that is not there yet)
            }
            return pass as T;
          };
          return batch(context);
        }),
      };
      return { excel, log, workbook: new ExcelWorkbook(host) };
    };
    const ok = logged();
    await ok.workbook.writeTable(table(["ID", "Description"], rows));
    expect(ok.excel.stats.syncs).toBeGreaterThan(4);
    // Never two requests out at once: every request comes back before the next one is sent.
    expect(ok.log).toEqual(ok.log.map((_, i) => `${i % 2 ? "back" : "send"} ${Math.floor(i / 2) + 1}`));
    expect(bodyOf(ok.excel).values).toEqual(rows);

    const failing = logged(3);
    await expect(failing.workbook.writeTable(table(["ID", "Description"], rows))).rejects.toThrow("refused");
    expect(failing.log.at(-1)).toBe("send 3");
    expect(failing.log.filter((line) => line.startsWith("send"))).toHaveLength(3);
  });

  it("a stream holding partial requests until finish sends only full requests, the rest at finish; discard takes back only what was sent", async () => {
    // 30,000 rows of about 250 bytes (7.5 MB in all), appended 1,000 at a time as a load's pages arrive.
    const rows = Array.from({ length: 30_000 }, (_, i) => [`id-${i}`, "x".repeat(200), `state-${i % 7}`]);
    const start = { ...table(["ID", "Text", "State"], []), holdPartial: "untilFinish" as const };
    const streamed = async (excel: FakeExcel, upTo: number) => {
      const stream = await new ExcelWorkbook(excel).createTable(start);
      const before = excel.stats.syncs;
      const sentAfter: number[] = [];
      for (let at = 0; at < upTo; at += 1000) {
        await stream.append(rows.slice(at, at + 1000));
        sentAfter.push(excel.stats.syncs - before);
      }
      return { stream, before, sentAfter };
    };
    const excel = new FakeExcel();
    const { stream, before, sentAfter } = await streamed(excel, rows.length);
    // While the rows came, only full requests went (each within a row of the 4 MB budget), never one per page.
    const duringAppends = excel.stats.requestBytes.slice(-sentAfter.at(-1)!);
    expect(duringAppends.length).toBeGreaterThanOrEqual(2);
    for (const bytes of duringAppends) expect(bytes).toBeGreaterThan(3_900_000);
    expect(bodyOf(excel).values.length).toBeLessThan(rows.length);
    // The rest goes with finish: its own request, then the fills and the recalculation (never in a request
    // whose calculation is suspended for the write).
    await stream.finish();
    expect(excel.stats.syncs - before).toBe(sentAfter.at(-1)! + 2);
    expect(bodyOf(excel).values).toEqual(rows);
    expect(excel.stats.requestBytes.every((b) => b <= PAYLOAD_LIMIT_BYTES)).toBe(true);
    // Without the option, every append is a request of its own: 30 of them.
    const plain = new FakeExcel();
    const eager = await new ExcelWorkbook(plain).createTable({ ...start, holdPartial: undefined });
    const eagerBefore = plain.stats.syncs;
    for (let at = 0; at < rows.length; at += 1000) await eager.append(rows.slice(at, at + 1000));
    await eager.finish(); // an append returns once its request is sent: count them once they are all in
    expect(plain.stats.syncs - eagerBefore).toBe(30 + 1);
    // Discarded with rows still waiting: the table goes, and nothing of the waiting rows was ever written.
    const other = new FakeExcel();
    const early = await streamed(other, 5000);
    expect(other.stats.syncs - early.before).toBe(0);
    await early.stream.discard();
    expect(other.model.table("T")).toBeUndefined();
    expect(other.model.sheets.map((sheet) => sheet.name)).toEqual(["Sheet1"]);
  });

  it("a sync writing 3,000 statuses of 2,000 characters each stays under the limit", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "Status"], Array.from({ length: 3000 }, (_, i) => [`id-${i}`, ""])));
    excel.resetStats();
    const status = (i: number) => `${i} 申請は却下されました: `.padEnd(2000, "理由");
    // Outcomes alternate, as in a sync with mixed results: every cell starts a new fill stretch.
    await workbook.writeCells("T", Array.from({ length: 3000 }, (_, row) => ({ row, column: 1, value: status(row), fill: row % 2 ? "#FFC7CE" : "#C6EFCE" })));
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    expect(excel.stats.requestBytes.reduce((a, b) => a + b, 0)).toBeGreaterThan(3000 * 6000);
    expect(bodyOf(excel).values.map((r) => r[1])).toEqual(Array.from({ length: 3000 }, (_, i) => status(i)));
    expect(bodyOf(excel).rows.map((r) => r[1]?.fill)).toEqual(Array.from({ length: 3000 }, (_, i) => (i % 2 ? "#FFC7CE" : "#C6EFCE")));
  });

  it("25,000 short statuses with alternating fills: the fill operations count toward the budget too", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "Status"], Array.from({ length: 25_000 }, (_, i) => [`id-${i}`, ""])));
    excel.resetStats();
    await workbook.writeCells("T", Array.from({ length: 25_000 }, (_, row) => ({ row, column: 1, value: `Applied ${row}`, fill: row % 2 ? "#FFC7CE" : "#C6EFCE" })));
    expect(excel.stats.requestBytes.length).toBeGreaterThan(3);
    expect(excel.stats.requestBytes.length).toBeLessThanOrEqual(10); // a request per 3 MB of budget, not per run
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
  });

  it("25,000 cells that only change colour (a Discard's fills) go in several requests, each under 5 MB; the values stay", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "Status"], Array.from({ length: 25_000 }, (_, i) => [`id-${i}`, `s${i}`])));
    excel.resetStats();
    await workbook.writeCells("T", Array.from({ length: 25_000 }, (_, row) => ({ row, column: 1, fill: row % 2 ? "#FFC7CE" : "#C6EFCE" })));
    // 25,000 fills of 800 budgeted bytes, 3 MB a request: 7 requests and the table's lookup, not one per fill.
    expect(excel.stats.requestBytes.length).toBeGreaterThan(3);
    expect(excel.stats.requestBytes.length).toBeLessThanOrEqual(10);
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    const t = excel.model.table("T")!;
    expect([0, 1, 24_999].map((r) => [t.sheet.cell(1 + r, 1)?.value, t.sheet.cell(1 + r, 1)?.fill])).toEqual([["s0", "#C6EFCE"], ["s1", "#FFC7CE"], ["s24999", "#FFC7CE"]]);
  });

  it("a streamed page holding more than a request's worth (long CJK descriptions) goes in several requests, each under 5 MB, every row in order", async () => {
    const excel = new FakeExcel();
    const stream = await new ExcelWorkbook(excel).createTable(table(["ID", "Description"], []));
    const rows: CellValue[][] = Array.from({ length: 1_000 }, (_, i) => [`e-${i}`, `${i} 出張の経費精算 `.repeat(200)]);
    excel.resetStats();
    await stream.append(rows);
    await stream.finish();
    expect(excel.stats.requestBytes.filter((b) => b > 1_000_000)).toHaveLength(2); // 5.3 MB of rows: two requests
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    expect(bodyOf(excel).values).toEqual(rows);
  });

  it("the person's formulas count toward a request's bytes: a table whose formulas alone pass 5 MB (4,363 of 1,500 characters) is rewritten in requests under it, the values beside them kept", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const rows: CellValue[][] = Array.from({ length: 12_000 }, (_, i) => [`r${i}`, i]);
    // Rows here and there hold the person's formula (no pattern a chunk's offset could mirror); the others keep a value there.
    const hasFormula = (i: number) => (i * 7919) % 11 < 4;
    const formulas = rows.map((_, i): (string | null)[] => [null, hasFormula(i) ? `=LEN("${"x".repeat(1_500)}")+${i}` : null]);
    excel.resetStats();
    await workbook.writeTable(table(["ID", "Mine"], rows, { numberFormats: ["@", null], formulas }));
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    const body = bodyOf(excel);
    const withFormula = rows.map((_, r) => r).filter(hasFormula);
    expect(body.formulas).toBe(withFormula.length);
    expect(withFormula.filter((r) => body.rows[r][1]?.formula !== formulas[r][1])).toEqual([]);
    const lost = rows.map((_, r) => r).filter((r) => !hasFormula(r) && body.values[r][1] !== r);
    expect(lost).toEqual([]);
  });

  it("cells that only change colour, in any order, any column, on a table away from A1: each gets its colour or loses it, values stay, one range per stretch", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.add("Data");
      sheet.getRange("C3:F3").values = [["ID", "State", "Paid", "Note"]];
      sheet.getRange("C4:F1003").values = Array.from({ length: 1_000 }, (_, i) => [`r${i}`, "open", "p", "n"]);
      sheet.tables.add("Data!C3:F1003", true).name = "T";
      sheet.getRange("D4:D1003").format.fill.color = "#DDEBF7";
      sheet.getRange("E503:E506").format.fill.color = "#DDEBF7"; // Paid, rows 499-502 of the body
      await ctx.sync();
    });
    const workbook = new ExcelWorkbook(excel);
    const rows = Array.from({ length: 1_000 }, (_, i) => 999 - i); // given last row first
    excel.resetStats();
    await workbook.writeCells("T", [
      ...rows.map((row) => ({ row, column: 3, fill: "#FFC7CE" })), // the Note column, all of it one colour
      ...rows.filter((row) => row < 500).map((row) => ({ row, column: 1, fill: null })), // State: the first 500 lose theirs
      { row: 7, column: 2, value: "paid-7", fill: "#C6EFCE" }, // a value with its colour
      { row: 5, column: 1, value: "checked" }, { row: 6, column: 1, value: "checked" }, // State's run ends just above it
      { row: 0, column: 0, value: "r0-renamed" }, // the first column takes a value too
      // ID: rows 10 and 12-14 one colour with a gap between; Paid: rows 500-501 cleared, right after State's cleared rows end.
      ...[10, 12, 13, 14].map((row) => ({ row, column: 0, fill: "#FFEB9C" })),
      ...[500, 501].map((row) => ({ row, column: 2, fill: null })),
    ]);
    const cell = (row: number, column: number) => excel.model.sheet("Data")!.cell(3 + row, 2 + column);
    expect([9, 10, 11, 12, 13, 14, 15].map((r) => cell(r, 0)?.fill)).toEqual([undefined, "#FFEB9C", undefined, "#FFEB9C", "#FFEB9C", "#FFEB9C", undefined]);
    expect([500, 501, 502].map((r) => [cell(r, 1)?.fill, cell(r, 2)?.fill])).toEqual([["#DDEBF7", undefined], ["#DDEBF7", undefined], ["#DDEBF7", "#DDEBF7"]]);
    expect([0, 499, 500, 999].map((r) => cell(r, 1)?.fill)).toEqual([undefined, undefined, "#DDEBF7", "#DDEBF7"]);
    expect([0, 500, 999].map((r) => [cell(r, 3)?.fill, cell(r, 3)?.value])).toEqual([["#FFC7CE", "n"], ["#FFC7CE", "n"], ["#FFC7CE", "n"]]);
    expect([cell(7, 2)?.value, cell(7, 2)?.fill, cell(6, 2)?.fill, cell(0, 0)?.value, cell(0, 1)?.value]).toEqual(["paid-7", "#C6EFCE", undefined, "r0-renamed", "open"]);
    expect([5, 6, 7].map((r) => [cell(r, 1)?.value, cell(r, 2)?.value])).toEqual([["checked", "p"], ["checked", "p"], ["open", "paid-7"]]);
    // Five stretches of fills and three runs of values: a few operations, not one per cell (1,500 would be over 100 KB).
    expect(excel.stats.requestBytes.at(-1)).toBeLessThan(10_000);
  });

  it("lone surrogate halves (an emoji cut in two by the service) are counted as JSON escapes them", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const rows = Array.from({ length: 200 }, (_, i) => [`id-${i}`, "\ud83d".repeat(32_000)]);
    await workbook.writeTable(table(["ID", "Text"], rows));
    expect(excel.largestRequestBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    expect((await workbook.readTable("T"))!.rows).toEqual(rows);
  });

  it("a read that Excel refuses as too large is read again in smaller chunks", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    // Few rows, huge cells: the first chunk (sized before any row is measured) is far over 5 MB.
    const rows = Array.from({ length: 400 }, (_, i) => [`id-${i}`, "数".repeat(30_000)]);
    await workbook.writeTable(table(["ID", "Text"], rows));
    const read = await workbook.readTable("T");
    expect(read!.rows).toEqual(rows);
    expect(excel.stats.refusedResponses).toBeGreaterThan(0);
    expect(excel.largestResponseBytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
  }, 60_000);
});

describe("the user's workbook", () => {
  it("every Excel.run waits for cell edit mode: a write and a read started while the user types finish after", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "State"], [["a", "approved"]]));
    const edit = excel.user.beginCellEdit("Data", "B2");
    let finished = 0;
    const write = workbook.writeCells("T", [{ row: 0, column: 1, value: "paid" }]).then(() => finished++);
    const read = workbook.readTable("T").then((r) => (finished++, r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(0);
    edit.end();
    await write;
    expect((await read)!.rows.length).toBe(1);
    expect(excel.runs.length).toBeGreaterThan(2);
    expect(excel.runs.every((options) => options.delayForCellEdit === true)).toBe(true);
  });

  it("a request Excel leaves waiting for a cell edit turns the wait notice on after WAIT_NOTICE_MS, and off once Excel answers", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "State"], [["a", "approved"]]));
    const heard: boolean[] = [];
    const stop = workbook.onExcelWait((waiting) => heard.push(waiting));
    jest.useFakeTimers();
    try {
      const edit = excel.user.beginCellEdit("Data", "B2");
      const write = workbook.writeCells("T", [{ row: 0, column: 1, value: "paid" }]);
      // Awaited below; handled now, so that an expectation failing before then fails this test, not jest's process.
      write.catch(() => undefined);
      for (let i = 0; i < 20; i++) await Promise.resolve();
      jest.advanceTimersByTime(WAIT_NOTICE_MS - 1);
      expect(heard).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(heard).toEqual([true]);
      edit.end();
      await write;
      expect(heard).toEqual([true, false]);
      // A request answered in time raises nothing.
      await workbook.writeCells("T", [{ row: 0, column: 1, value: "accounted" }]);
      jest.advanceTimersByTime(WAIT_NOTICE_MS * 2);
      expect(heard).toEqual([true, false]);
    } finally {
      jest.useRealTimers();
      stop();
    }
  });

  it("a Total Row is never read or overwritten as data, and survives a rewrite", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "Amount"], [["a", 1], ["b", 2]], { numberFormats: ["@", "0"] }));
    await excel.run(async (ctx) => {
      ctx.workbook.tables.getItemOrNullObject("T").showTotals = true;
      await ctx.sync();
    });
    expect((await workbook.readTable("T"))!.rows).toEqual([["a", 1], ["b", 2]]);
    await workbook.writeTable(table(["ID", "Amount"], [["a", 1], ["b", 2], ["c", 3]], { numberFormats: ["@", "0"] }));
    const t = excel.model.table("T")!;
    expect(t.showTotals).toBe(true);
    expect(bodyOf(excel).values).toEqual([["a", 1], ["b", 2], ["c", 3]]);
    expect(t.sheet.cell(t.area.row + t.area.rowCount - 1, 0)?.value).toBe("Total");
    await workbook.appendRows({ sheetName: "Data", tableName: "T", header: ["ID", "Amount"], rows: [["d", 4]], numberFormats: ["@", "0"] });
    expect((await workbook.readTable("T"))!.rows).toEqual([["a", 1], ["b", 2], ["c", 3], ["d", 4]]);
    expect(excel.model.table("T")!.showTotals).toBe(true);
  });

  it("the user's own columns keep their number formats and formulas; a table on another sheet than the active one is resized there", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await workbook.writeTable(table(["ID", "Amount", "My date", "My formula"], [["a", 1, 46000, 2]], {
      numberFormats: ["@", "0.00", null, null], formulas: [[null, null, null, "=B2*2"]],
    }));
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItemOrNullObject("Data").getRangeByIndexes(1, 2, 1, 1).numberFormat = [["d mmm yyyy"]];
      await ctx.sync();
    });
    expect(excel.model.activeSheet?.name).toBe("Sheet1");
    await workbook.writeTable(table(["ID", "Amount", "My date", "My formula"], [["a", 5, 46000, 10], ["b", 6, 46001, "=1+1"]], {
      numberFormats: ["@", "0.00", null, null], formulas: [[null, null, null, "=B2*2"], [null, null, null, null]],
    }));
    const body = bodyOf(excel);
    expect(body.rows[0][2]?.numberFormat).toBe("d mmm yyyy");
    // A formula only where one is given; a value that starts with "=" stays that text.
    expect(body.rows.map((r) => r[3]?.formula)).toEqual(["=B2*2", undefined]);
    expect(body.rows[1][3]?.value).toBe("=1+1");
    expect(body.rows[0][1]?.numberFormat).toBe("0.00");
    expect(excel.model.recalculationPending).toBe(false);
  });

  it("a table the person moved to the sheet's last columns is rewritten there, its editable column filled, nothing asked past column XFD", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.add("Data");
      sheet.getRange("XFC1:XFD2").values = [["ID", "State"], ["old", "x"]];
      sheet.tables.add("Data!XFC1:XFD2", true).name = "T";
      await ctx.sync();
    });
    await workbook.writeTable(table(["ID", "State"], [["a", "open"], ["b", "paid"]], { editable: [false, true] }));
    const t = excel.model.table("T")!;
    expect(t.area).toEqual({ row: 0, column: 16382, rowCount: 3, columnCount: 2 });
    expect(bodyOf(excel).values).toEqual([["a", "open"], ["b", "paid"]]);
    expect([1, 2].map((r) => t.sheet.cell(r, 16383)?.fill)).toEqual([EDITABLE_FILL, EDITABLE_FILL]);
  });

  it("a load on the person's empty sheet whose table they delete before it fails: its cells are still taken back, the sheet and its formats stay", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.add("Data").getRange("F1").format.fill.color = "#FFEEAA";
      await ctx.sync();
    });
    const stream = await workbook.createTable(table(["ID", "State"], []));
    await stream.append([["a", "open"], ["b", "paid"]]);
    await excel.run(async (ctx) => {
      ctx.workbook.tables.getItem("T").delete();
      await ctx.sync();
    });
    expect(excel.model.sheet("Data")!.cell(2, 0)?.value).toBe("b"); // Excel keeps a deleted table's cells
    await stream.discard();
    const sheet = excel.model.sheet("Data")!;
    expect(excel.model.tables).toEqual([]);
    expect([0, 1, 2].map((r) => [0, 1].map((c) => sheet.cell(r, c)?.value ?? ""))).toEqual([["", ""], ["", ""], ["", ""]]);
    expect(sheet.cell(0, 5)?.fill).toBe("#FFEEAA");
  });

  it.each([false, true])("rewritten whole with fewer columns and rows (Total Row: %s): nothing of the old table is left beside or below it; the person's notes around it stay", async (totals) => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const header = ["ID", "State", "Amount", "Note"];
    await workbook.writeTable(table(header, Array.from({ length: 5 }, (_, i) => [`r${i}`, "open", i, `n${i}`]), {
      editable: [false, true, false, true], dropdowns: [null, ["open", "paid"], null, null],
    }));
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.getItem("Data");
      sheet.getRange("F1:F2").values = [["title"], ["beside"]];
      sheet.getRange("A10").values = [["below"]];
      ctx.workbook.tables.getItem("T").showTotals = totals;
      await ctx.sync();
    });
    await workbook.writeTable(table(["ID", "State"], [["a", "paid"], ["b", "open"]]));
    const t = excel.model.table("T")!;
    expect(t.area).toEqual({ row: 0, column: 0, rowCount: totals ? 4 : 3, columnCount: 2 });
    expect(t.showTotals).toBe(totals);
    expect(bodyOf(excel).values).toEqual([["a", "paid"], ["b", "open"]]);
    if (totals) expect(t.sheet.cell(3, 0)?.value).toBe("Total");
    // The old rows 3-5 (and Total Row, sheet row 7) and the old columns C:D: no value, no fill. The notes stay.
    const left = [];
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 6; c++) {
        if (r < t.area.rowCount && c < 2) continue;
        const cell = t.sheet.cell(r, c);
        if (cell?.value !== undefined && cell.value !== "") left.push(`${r},${c} ${String(cell.value)}`);
        if (cell?.fill !== undefined) left.push(`${r},${c} fill`);
      }
    }
    expect(left).toEqual(["0,5 title", "1,5 beside", "9,0 below"]);
  });

  it("a new table whose first request Excel refuses is taken back with the sheet the load added, and the refusal is what the load says", async () => {
    const excel = new FakeExcel();
    let runs = 0;
    const host: ExcelHost = {
      run: (options, batch) => excel.run(options, (context) => {
        const run = ++runs;
        const sync = context.sync.bind(context);
        context.sync = async <T>(pass?: T): Promise<T> => {
          if (run === 2) throw Object.assign(new Error("The sheet is protected."), { code: "AccessDenied" });
          await sync();
          return pass as T;
        };
        return batch(context);
      }),
    };
    await expect(new ExcelWorkbook(host).createTable(table(["ID", "State"], []))).rejects.toThrow("The sheet is protected.");
    expect(runs).toBe(3); // the sheet added, the header refused, the sheet taken back
    expect(excel.model.sheets.map((sheet) => sheet.name)).toEqual(["Sheet1"]);
    expect(excel.model.tables).toEqual([]);
  });

  it("a streamed table has its layout's column widths from its first request, before any row is in; a column without one keeps Excel's", async () => {
    const excel = new FakeExcel();
    const stream = await new ExcelWorkbook(excel).createTable(table(["ID", "State", "Note"], [], { widths: [90, 120, undefined] }));
    const sheet = excel.model.sheet("Data")!;
    expect([0, 1, 2].map((c) => sheet.columnWidths.get(c))).toEqual([90, 120, undefined]);
    await stream.discard();
  });

  it("going to a record's cell (the taskpane's links) shows its sheet and selects that cell of the table, wherever the table stands, by index or by header; a row it no longer has, or a table gone, changes nothing", async () => {
    const excel = new FakeExcel();
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.add("Data");
      sheet.getRange("C3:D5").values = [["ID", "State"], ["a", "open"], ["b", "paid"]];
      sheet.tables.add("Data!C3:D5", true).name = "T";
      await ctx.sync();
    });
    const workbook = new ExcelWorkbook(excel);
    expect(excel.model.activeSheet?.name).toBe("Sheet1");
    await workbook.select("T", 1, 1);
    expect(excel.model.activeSheet?.name).toBe("Data");
    expect(excel.model.selection).toEqual({ sheet: "Data", area: { row: 4, column: 3, rowCount: 1, columnCount: 1 } });
    // By its header (a load selects its first State cell); a header the table lacks, its first column.
    await workbook.select("T", 0, "State");
    expect(excel.model.selection).toEqual({ sheet: "Data", area: { row: 3, column: 3, rowCount: 1, columnCount: 1 } });
    await workbook.select("T", 0, "Paid ID");
    expect(excel.model.selection).toEqual({ sheet: "Data", area: { row: 3, column: 2, rowCount: 1, columnCount: 1 } });
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Sheet1").activate();
      await ctx.sync();
    });
    const before = excel.model.selection;
    await workbook.select("T", 2, 0);
    await workbook.select("Gone", 0, 0);
    expect([excel.model.activeSheet?.name, excel.model.selection]).toEqual(["Sheet1", before]);
  });

  it("a journal table deleted between the check that it exists and the append is reported, and nothing is written", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const journal = { sheetName: "Journal", tableName: "J", header: ["When", "What"], numberFormats: ["@", "@"] };
    await workbook.appendRows({ ...journal, rows: [["t1", "first"]] });
    let runs = 0;
    const run = excel.run.bind(excel);
    excel.run = (async (...args: Parameters<typeof excel.run>) => {
      const result = await run(...args);
      if (++runs === 1) await run(async (ctx) => {
        ctx.workbook.tables.getItem("J").delete();
        await ctx.sync();
      });
      return result;
    }) as typeof excel.run;
    await expect(workbook.appendRows({ ...journal, rows: [["t2", "second"]] })).rejects.toThrow("The table J is gone from the workbook.");
    expect(excel.model.sheet("Journal")!.cell(2, 1)?.value ?? "").toBe("");
  });

  it("a journal appends below its last row wherever it stands, fills the one empty row a new table has, never writes over a row that holds something, and gains no Total Row", async () => {
    const excel = new FakeExcel();
    const workbook = new ExcelWorkbook(excel);
    const journal = { sheetName: "Journal", tableName: "J", header: ["When", "What", "Who"], numberFormats: ["@", "@", "@"] };
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.add("Journal");
      sheet.getRange("B3:D4").values = [["When", "What", "Who"], ["", "", ""]];
      sheet.tables.add("Journal!B3:D4", true).name = "J";
      sheet.getRange("B3:D4").numberFormat = [["@", "@", "@"], ["@", "@", "@"]];
      await ctx.sync();
    });
    const rowsOf = () => tableRows(excel, "J");
    await workbook.appendRows({ ...journal, rows: [["t1", "first", "ann"]] });
    expect(rowsOf()).toEqual([["t1", "first", "ann"]]); // the empty row taken, none left blank above
    // A journal that does not exist yet is created with its rows: no column of it is marked editable.
    await workbook.appendRows({ ...journal, sheetName: "New", tableName: "N", rows: [["t0", "zero", "al"]] });
    const created = excel.model.table("N")!;
    expect(tableRows(excel, "N")).toEqual([["t0", "zero", "al"]]);
    expect([0, 1, 2].flatMap((c) => [created.sheet.cell(0, c)?.fill, created.sheet.cell(1, c)?.fill])).toEqual(Array(6).fill(undefined));
    await workbook.appendRows({ ...journal, rows: [["t2", "second", "bob"], ["t3", "third", "cy"]] });
    expect(rowsOf()).toEqual([["t1", "first", "ann"], ["t2", "second", "bob"], ["t3", "third", "cy"]]);
    expect(excel.model.table("J")!.area).toEqual({ row: 2, column: 1, rowCount: 4, columnCount: 3 });
    expect(excel.model.table("J")!.showTotals).toBe(false);

    // A table of one row with something in one cell only: that row stays, the new one goes below.
    await excel.run(async (ctx) => {
      const sheet = ctx.workbook.worksheets.add("Other");
      sheet.getRange("A1:C2").values = [["When", "What", "Who"], ["", "kept", ""]];
      sheet.tables.add("Other!A1:C2", true).name = "K";
      await ctx.sync();
    });
    await workbook.appendRows({ ...journal, sheetName: "Other", tableName: "K", rows: [["t4", "fourth", "di"]] });
    expect(tableRows(excel, "K")).toEqual([["", "kept", ""], ["t4", "fourth", "di"]]);
    // A journal whose first row the person emptied: only a table's one and only row is the new rows' place.
    await excel.run(async (ctx) => {
      ctx.workbook.worksheets.getItem("Other").getRange("A2:C2").values = [["", "", ""]];
      await ctx.sync();
    });
    await workbook.appendRows({ ...journal, sheetName: "Other", tableName: "K", rows: [["t5", "fifth", "ed"]] });
    expect(tableRows(excel, "K")).toEqual([["", "", ""], ["t4", "fourth", "di"], ["t5", "fifth", "ed"]]);
  });

  it("settings: one that was never written reads as null, a written one as its text, written again as the new text", async () => {
    const workbook = new ExcelWorkbook(new FakeExcel());
    expect(await workbook.readSetting("spendsync.nothing")).toBeNull();
    await workbook.writeSetting("spendsync.k", "v1");
    expect(await workbook.readSetting("spendsync.k")).toBe("v1");
    await workbook.writeSetting("spendsync.k", "");
    expect(await workbook.readSetting("spendsync.k")).toBe("");
    expect(await workbook.readSetting("spendsync.nothing")).toBeNull();
  });
});
