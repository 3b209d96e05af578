/**
 * A streamed table (a first load) keeps Excel busy: an append returns once its last request is sent, the
 * next rows' first request follows the moment that one is back, never sooner; a failure stops what is
 * behind it; rows that would make a partial request wait while Excel is busy and go when it is idle; a
 * discard waits for what is on its way.
 */
import { type CellValue, type TableStart } from "../../src/sheets";
import { ExcelWorkbook } from "../../src/sheets/excel";
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../src/workbench/fake-excel";
import { settle, watch } from "../support/settle";

/** Rows of about 330 bytes as requests count them: about 12,000 fill one request. */
const rowsFrom = (from: number, count: number): CellValue[][] =>
  Array.from({ length: count }, (_, i) => [`id-${from + i}`, "x".repeat(200), `state-${(from + i) % 7}`]);

const start = (extra: Partial<TableStart> = {}): TableStart => ({
  sheetName: "Data", tableName: "T", header: ["ID", "Text", "State"], numberFormats: ["@", "@", "@"],
  editable: [false, false, false], dropdowns: [null, null, null], ...extra,
});

/**
 * An Excel whose requests are logged on the wire as they arrive and as their answers leave; each can be held in
 * Excel (applied, its answer not yet back) until released, or refused (not applied, answered with an error).
 * Office.js's own cleanup requests at the end of an Excel.run are not the add-in's requests: not logged.
 */
function gatedExcel() {
  const log: string[] = [];
  const gates = new Map<number, Promise<void>>();
  const refused = new Set<number>();
  let sent = 0;
  const excel = new FakeExcel(undefined, {
    endpoint: (host) => ({
      processQuery: async (body, flags) => {
        if (body.includes('"_RemoveReference"') && !body.includes('"ActionType":4')) return host.processQuery(body, flags);
        const n = ++sent;
        log.push(`send ${n}`);
        if (refused.has(n)) {
          return JSON.stringify({ Results: [], Error: { Code: "InvalidArgument", Message: `request ${n} refused`, HttpStatusCode: 400, ActionIndex: -1, Location: "" } });
        }
        const answer = await host.processQuery(body, flags);
        await gates.get(n);
        log.push(`back ${n}`);
        return answer;
      },
    }),
  });
  return {
    excel, log, workbook: new ExcelWorkbook(excel),
    /** Counting starts again from 1 (after the table is created). */
    restart: () => {
      log.length = 0;
      sent = 0;
    },
    hold: (n: number) => {
      let release!: () => void;
      gates.set(n, new Promise<void>((resolve) => (release = resolve)));
      return release;
    },
    refuse: (n: number) => refused.add(n),
  };
}


const bodyOf = (excel: FakeExcel) => {
  const t = excel.model.table("T")!;
  return Array.from({ length: t.area.rowCount - 1 }, (_, r) => [0, 1, 2].map((c) => t.sheet.cell(t.area.row + 1 + r, c)?.value ?? ""));
};

describe("a streamed table", () => {
  it("returns from an append once its request is sent; the next request follows when it is back; rows held while Excel is busy go when it is idle", async () => {
    const x = gatedExcel();
    // Each row's own formats are asked for once, however often it is planned (to hold it, then to send it).
    const planned = new Map<CellValue, number>();
    const formatsOf = (row: CellValue[]) => {
      planned.set(row[0], (planned.get(row[0]) ?? 0) + 1);
      return ["@", "@", "@"];
    };
    const stream = await x.workbook.createTable(start({ holdPartial: "whileExcelBusy", formatsOf }));
    x.restart();

    // Excel is idle: the first 1,000 rows go at once, though they fill only part of a request.
    const release1 = x.hold(1);
    const first = watch(stream.append(rowsFrom(0, 1000)));
    await settle();
    expect(x.log).toEqual(["send 1"]);
    expect(first.done).toBe(true); // sent, not back: the caller goes on preparing the next rows

    // Excel is busy with request 1: 1,000 more rows would make a partial request, so they wait.
    const second = watch(stream.append(rowsFrom(1000, 1000)));
    await settle();
    expect(second.done).toBe(true);
    expect(x.log).toEqual(["send 1"]);

    // 20,000 more: with the 1,000 waiting, one full request's worth is ready, and waits for request 1.
    const release2 = x.hold(2);
    const third = watch(stream.append(rowsFrom(2000, 20_000)));
    await settle();
    expect(third.done).toBe(false);
    expect(x.log).toEqual(["send 1"]);

    release1();
    await settle();
    expect(x.log).toEqual(["send 1", "back 1", "send 2"]);
    expect(third.done).toBe(true);
    // Request 2 is full; what did not fit waits while Excel works on it.
    expect(x.excel.stats.requestBytes.at(-1)).toBeGreaterThan(3_900_000);

    // Still busy with request 2: 2,000 more rows wait with what did not fit, and go with it.
    await stream.append(rowsFrom(22_000, 2000));
    await settle();
    expect(x.log).toEqual(["send 1", "back 1", "send 2"]);

    // Request 2 back, nothing more appended: Excel would be idle, so the rest goes on its own, in one request.
    release2();
    await settle();
    expect(x.log).toEqual(["send 1", "back 1", "send 2", "back 2", "send 3", "back 3"]);
    expect(bodyOf(x.excel)).toEqual(rowsFrom(0, 24_000));
    expect(planned.size).toBe(24_000);
    expect([...planned.values()].every((times) => times === 1)).toBe(true);

    // Nothing is held, so finish sends only the fills and the recalculation.
    await stream.finish();
    expect(x.log).toEqual(["send 1", "back 1", "send 2", "back 2", "send 3", "back 3", "send 4", "back 4"]);
    expect(x.excel.stats.requestBytes.every((bytes) => bytes <= PAYLOAD_LIMIT_BYTES)).toBe(true);
    expect(bodyOf(x.excel)).toEqual(rowsFrom(0, 24_000));
  });

  it.each([
    ["sent whole", undefined, 1000],
    ["held while Excel is busy", "whileExcelBusy", 1000],
    ["held until finish", "untilFinish", 13_000],
  ] as const)("rows %s: a refused request stops every request behind it, and the next append throws it even if it would only hold rows", async (_name, holdPartial, first) => {
    const x = gatedExcel();
    const stream = await x.workbook.createTable(start({ holdPartial }));
    x.restart();
    x.refuse(1);
    await stream.append(rowsFrom(0, first)); // request 1 is sent; its refusal is not known yet
    await settle();
    await expect(stream.append(rowsFrom(first, 1000))).rejects.toThrow("request 1 refused");
    await expect(stream.finish()).rejects.toThrow("request 1 refused");
    expect(x.log).toEqual(["send 1"]);
    await stream.discard();
    expect(x.excel.model.table("T")).toBeUndefined();
    expect(x.excel.model.sheets.map((sheet) => sheet.name)).toEqual(["Sheet1"]);
  });

  it("a discard waits for the request still in Excel, so no row lands after the table is taken back", async () => {
    const x = gatedExcel();
    // The sheet is the user's: the discard clears the table's cells and leaves the sheet.
    await x.excel.run(async (context) => {
      context.workbook.worksheets.add("Data");
      await context.sync();
    });
    const stream = await x.workbook.createTable(start());
    x.restart();
    const release = x.hold(1);
    await stream.append(rowsFrom(0, 1000));
    const discarding = watch(stream.discard());
    await settle();
    expect(discarding.done).toBe(false);
    expect(x.log).toEqual(["send 1"]);
    release();
    await settle();
    expect(discarding.done).toBe(true);
    expect(x.log.slice(0, 2)).toEqual(["send 1", "back 1"]);
    expect(x.excel.model.table("T")).toBeUndefined();
    expect(x.excel.model.sheet("Data")!.usedArea()).toBeNull();
  });

  it("a discard with rows held drops them: after the request in Excel is back, only the discard's own requests follow", async () => {
    const x = gatedExcel();
    await x.excel.run(async (context) => {
      context.workbook.worksheets.add("Data");
      await context.sync();
    });
    const stream = await x.workbook.createTable(start({ holdPartial: "whileExcelBusy" }));
    x.restart();
    const before = x.excel.stats.requestBytes.length;
    const release = x.hold(1);
    await stream.append(rowsFrom(0, 1000));
    await stream.append(rowsFrom(1000, 1000)); // held: Excel is busy
    const discarding = stream.discard();
    release();
    await discarding;
    await settle();
    // One request carried rows (request 1); the discard's are a few bytes each.
    expect(x.excel.stats.requestBytes.slice(before).filter((bytes) => bytes > 100_000)).toHaveLength(1);
    expect(x.excel.model.table("T")).toBeUndefined();
    expect(x.excel.model.sheet("Data")!.usedArea()).toBeNull();
    await expect(stream.append(rowsFrom(2000, 10))).rejects.toThrow("already finished or taken back");
  });

  it("a discard while finish's own request is in Excel waits for it: nothing of finish lands after the table is taken back", async () => {
    const x = gatedExcel();
    await x.excel.run(async (context) => {
      context.workbook.worksheets.add("Data");
      await context.sync();
    });
    const stream = await x.workbook.createTable(start({ dropdowns: [null, null, ["a", "b"]], editable: [false, false, true] }));
    await stream.append(rowsFrom(0, 1000));
    await settle();
    x.restart();
    const release = x.hold(1); // finish's fills, dropdown and recalculation
    const finishing = stream.finish();
    await settle();
    expect(x.log).toEqual(["send 1"]);
    const discarding = watch(stream.discard());
    await settle();
    expect(discarding.done).toBe(false);
    expect(x.log).toEqual(["send 1"]);
    release();
    await finishing;
    await settle();
    expect(discarding.done).toBe(true);
    expect(x.log.slice(0, 3)).toEqual(["send 1", "back 1", "send 2"]);
    expect(x.excel.model.table("T")).toBeUndefined();
    const sheet = x.excel.model.sheet("Data")!;
    expect(sheet.usedArea()).toBeNull();
    expect(sheet.validationAt(1, 2)).toBeUndefined();
  });

  it("rows held until finish are never sent by an idle Excel", async () => {
    const x = gatedExcel();
    const stream = await x.workbook.createTable(start({ holdPartial: "untilFinish" }));
    x.restart();
    await stream.append(rowsFrom(0, 1000));
    await settle();
    expect(x.log).toEqual([]);
    await stream.finish();
    expect(x.log).toEqual(["send 1", "back 1", "send 2", "back 2"]);
    expect(bodyOf(x.excel)).toEqual(rowsFrom(0, 1000));
  });
});
