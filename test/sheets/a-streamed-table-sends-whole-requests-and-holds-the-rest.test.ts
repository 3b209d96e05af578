/**
 * The requests of a streamed table go one after another, below the rows sent before: an append resolves once
 * its rows are sent; rows that would only fill part of a request wait until finish ("untilFinish") or while
 * Excel is busy with this table ("whileExcelBusy", then go at once when it is idle); after a refusal nothing
 * more goes, and the next append and finish throw it; a finished or taken-back table takes no more rows.
 */
import { StreamSends, type Hold, type RequestOrder } from "../../src/sheets/excel/stream-sends";
import type { CellValue } from "../../src/sheets";
import { settle as settleTurns, watch } from "../support/settle";

const rows = (from: number, count: number): CellValue[][] => Array.from({ length: count }, (_, i) => [`r${from + i}`]);

/** Writes that log what they were given, send at once (once the write ahead is back), and come back when the test says. */
function writes(hold: Hold) {
  const log: string[] = [];
  const back: { release: () => void; refuse: (error: unknown) => void }[] = [];
  const failAtOnce = new Set<number>();
  let calls = 0;
  const write = async (below: number, given: CellValue[][], order: RequestOrder) => {
    if (failAtOnce.has(++calls)) throw new Error(`write ${calls} failed at once`);
    // A write behind a refused one is not sent, and says so.
    await Promise.resolve(order.after).catch(() => {
      throw new Error("not sent: the request ahead was refused");
    });
    log.push(`send ${given.map((r) => r[0]).join(",")} below ${below}`);
    order.onAllSent?.();
    await new Promise<void>((release, refuse) => back.push({ release, refuse }));
    log.push(`back ${given.map((r) => r[0]).join(",")}`);
  };
  // Requests of three rows: how many of `given` fill whole ones.
  const sends = new StreamSends(write, (given) => Math.floor(given.length / 3) * 3, hold);
  return { sends, log, back, failAtOnce };
}

const settle = () => settleTurns(10);

jest.setTimeout(5_000);

describe("a streamed table", () => {
  it("sends every append whole when nothing is held, each below the last; an append returns once sent, finish once all are back", async () => {
    const w = writes(undefined);
    await w.sends.append(rows(0, 2));
    expect(w.log).toEqual(["send r0,r1 below 0"]);
    const second = watch(w.sends.append(rows(2, 1)));
    await settle();
    expect(second.done).toBe(false); // its request follows the one ahead, once that is back
    w.back[0].release();
    await settle();
    expect(second.done).toBe(true);
    expect(w.sends.written).toBe(3);
    const finish = watch(w.sends.settled());
    await settle();
    expect(finish.done).toBe(false);
    w.back[1].release();
    await settle();
    expect(finish.done).toBe(true);
    expect(w.log).toEqual(["send r0,r1 below 0", "back r0,r1", "send r2 below 2", "back r2"]);
  });

  it("sends nothing for no rows, and takes none once finished or taken back", async () => {
    const w = writes(undefined);
    await w.sends.append([]);
    expect(w.log).toEqual([]);
    await w.sends.settled();
    await expect(w.sends.append(rows(0, 1))).rejects.toThrow("This table is already finished or taken back: no rows can be added to it.");
    const other = writes(undefined);
    await other.sends.abandon();
    await expect(other.sends.append(rows(0, 1))).rejects.toThrow("This table is already finished or taken back: no rows can be added to it.");
    expect(other.log).toEqual([]);
  });

  it("until finish: only whole requests go; what is held joins the next rows, and goes at finish", async () => {
    const w = writes("untilFinish");
    await w.sends.append(rows(0, 2));
    expect(w.log).toEqual([]);
    const a = watch(w.sends.append(rows(2, 2)));
    await settle();
    expect(a.done).toBe(true);
    expect(w.log).toEqual(["send r0,r1,r2 below 0"]);
    w.back[0].release();
    await settle(); // Excel idle: held rows still wait for finish
    await w.sends.append(rows(4, 1));
    expect(w.log).toEqual(["send r0,r1,r2 below 0", "back r0,r1,r2"]);
    expect(w.sends.written).toBe(3);
    const finish = watch(w.sends.settled());
    await settle();
    expect(w.log.slice(2)).toEqual(["send r3,r4 below 3"]);
    expect(finish.done).toBe(false);
    w.back[1].release();
    await settle();
    expect(finish.done).toBe(true);
    expect(w.sends.written).toBe(5);
  });

  it("while Excel is busy: partial rows wait while a request is in Excel and go the moment it is back", async () => {
    const w = writes("whileExcelBusy");
    await w.sends.append(rows(0, 2)); // Excel idle: goes whole
    const second = watch(w.sends.append(rows(2, 4))); // busy: one whole request goes (after the first), one row waits
    await settle();
    expect(second.done).toBe(false);
    expect(w.log).toEqual(["send r0,r1 below 0"]);
    w.back[0].release();
    await settle();
    expect(w.log).toEqual(["send r0,r1 below 0", "back r0,r1", "send r2,r3,r4 below 2"]);
    expect(second.done).toBe(true);
    w.back[1].release();
    await settle();
    // Idle again: the held row goes by itself.
    expect(w.log.slice(3)).toEqual(["back r2,r3,r4", "send r5 below 5"]);
    w.back[2].release();
    await settle();
    expect(w.log.slice(5)).toEqual(["back r5"]); // idle with nothing held: nothing goes
    await w.sends.append(rows(6, 1)); // idle: goes at once, partial or not
    expect(w.log.slice(6)).toEqual(["send r6 below 6"]);
    w.back[3].release();
    await w.sends.settled();
  });

  it("while Excel is busy with a later request, rows still wait: the first one back does not make Excel idle", async () => {
    const w = writes("whileExcelBusy");
    await w.sends.append(rows(0, 3));
    const b = watch(w.sends.append(rows(3, 3))); // whole: goes behind the first
    await w.sends.append(rows(6, 1)); // held
    w.back[0].release();
    await settle();
    expect(b.done).toBe(true);
    await w.sends.append(rows(7, 1)); // the second request is in Excel: held with the other
    w.back[1].release();
    await settle();
    expect(w.log).toEqual(["send r0,r1,r2 below 0", "back r0,r1,r2", "send r3,r4,r5 below 3", "back r3,r4,r5", "send r6,r7 below 6"]);
  });

  it("while Excel is busy: held rows do not go by themselves once finish has taken them, nor after it", async () => {
    const w = writes("whileExcelBusy");
    await w.sends.append(rows(0, 3));
    await w.sends.append(rows(3, 1)); // busy: held (nothing to send, so it returns at once)
    const finish = watch(w.sends.settled()); // takes the held row into a request behind the first
    await settle();
    w.back[0].release();
    await settle();
    w.back[1].release();
    await settle();
    expect(finish.done).toBe(true);
    expect(w.log).toEqual(["send r0,r1,r2 below 0", "back r0,r1,r2", "send r3 below 3", "back r3"]);
  });

  it("after a refusal nothing more goes: the next append (even of no rows) and finish throw it; taking back waits and does not", async () => {
    const w = writes("whileExcelBusy");
    await w.sends.append(rows(0, 3));
    await w.sends.append(rows(3, 1)); // held behind the first
    const refusal = new Error("request refused");
    w.back[0].refuse(refusal);
    await settle();
    expect(w.log).toEqual(["send r0,r1,r2 below 0"]);
    await expect(w.sends.append([])).rejects.toBe(refusal);
    await expect(w.sends.append(rows(4, 3))).rejects.toBe(refusal);
    await expect(w.sends.settled()).rejects.toBe(refusal);
    await w.sends.abandon();
    expect(w.log).toEqual(["send r0,r1,r2 below 0"]);
  });

  it("a refusal of an earlier request is the one thrown, not a later one's", async () => {
    const w = writes(undefined);
    await w.sends.append(rows(0, 1));
    const second = w.sends.append(rows(1, 1));
    const first = new Error("first refused");
    w.back[0].refuse(first);
    await settle();
    await second.catch(() => undefined);
    w.back[1]?.refuse(new Error("second refused"));
    await settle();
    await expect(w.sends.settled()).rejects.toBe(first);
  });

  it("a write that fails before its turn is still waited for behind the one ahead: taking back returns once that one is back", async () => {
    const w = writes(undefined);
    await w.sends.append(rows(0, 1));
    w.failAtOnce.add(2);
    await w.sends.append(rows(1, 1)).catch(() => undefined);
    const abandon = watch(w.sends.abandon());
    await settle();
    expect(abandon.done).toBe(false);
    w.back[0].release();
    await settle();
    expect(abandon.done).toBe(true);
  });

  it("taking back then finishing sends none of the held rows", async () => {
    const w = writes("untilFinish");
    await w.sends.append(rows(0, 2));
    await w.sends.abandon();
    await w.sends.settled();
    expect(w.log).toEqual([]);
    expect(w.sends.written).toBe(0);
  });

  it("taking back drops held rows and waits for what is in Excel", async () => {
    const w = writes("untilFinish");
    await w.sends.append(rows(0, 4));
    const abandon = watch(w.sends.abandon());
    await settle();
    expect(abandon.done).toBe(false);
    w.back[0].release();
    await settle();
    expect(abandon.done).toBe(true);
    await settle();
    expect(w.log).toEqual(["send r0,r1,r2 below 0", "back r0,r1,r2"]);
    expect(w.sends.written).toBe(3);
  });
});
