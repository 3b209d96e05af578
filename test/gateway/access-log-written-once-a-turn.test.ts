/**
 * Rule: the CLI's access-log lines are written in order, all of them, and those logged in one turn of the event
 * loop in one write (issue 49: a write per request was a system call per request on the gateway's pipe), none
 * later than the end of its turn; a burst past 64 K characters is written at once, and what waits is written
 * when the CLI is told to flush (before it exits).
 */
import { lineBatch } from "../../src/gateway/node-line-batch";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function recorder() {
  const writes: string[] = [];
  return { writes, batch: lineBatch((text) => void writes.push(text)) };
}

describe("the access log's lines", () => {
  it("logged in one turn: one write at its end, in their order", async () => {
    const { writes, batch } = recorder();
    batch.write("a\n");
    batch.write("b\n");
    batch.write("c\n");
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["a\nb\nc\n"]);
  });

  it("logged in two turns: two writes, the first turn's first", async () => {
    const { writes, batch } = recorder();
    batch.write("a\n");
    await nextTurn();
    batch.write("b\n");
    batch.write("c\n");
    await nextTurn();
    expect(writes).toEqual(["a\n", "b\nc\n"]);
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it("a burst past 64 K characters is written as soon as it is past, the rest at the turn's end", async () => {
    const { writes, batch } = recorder();
    const line = `${"x".repeat(999)}\n`;
    for (let i = 0; i < 70; i++) batch.write(line);
    expect(writes).toEqual([line.repeat(66)]);
    await nextTurn();
    expect(writes).toEqual([line.repeat(66), line.repeat(4)]);
  });

  it("flush writes what waits at once, and the turn's end then has nothing left to write", async () => {
    const { writes, batch } = recorder();
    batch.write("a\n");
    batch.flush();
    expect(writes).toEqual(["a\n"]);
    await nextTurn();
    expect(writes).toEqual(["a\n"]);
  });
});
