/**
 * A first load's pages reach Excel in the order they were rendered, by one writer, while the load goes on
 * (src/sheets/load/batched-writes.ts): pages that arrive during a write go together in the next one, at most `ahead`
 * pages wait, and the first failure stops the writing and reaches the load, once, by its next push and its drain.
 * Each write here is held until the test lets it finish, so every order is decided by the test, not by timing.
 */
import { BatchedWrites } from "../../src/sheets/load/batched-writes";

/** Every write asked for, each held until `finish` or `fail`. */
class HeldWrites {
  readonly batches: string[][] = [];
  private readonly held: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  readonly write = (batch: string[]): Promise<void> => {
    this.batches.push([...batch]);
    return new Promise<void>((resolve, reject) => this.held.push({ resolve, reject }));
  };

  finish(): void {
    this.held.shift()!.resolve();
  }

  fail(error: unknown): void {
    this.held.shift()!.reject(error);
  }

  get waiting(): number {
    return this.held.length;
  }
}

/** Lets every promise that can settle do so. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `promise` has settled yet (without waiting for it). */
function tracked<T>(promise: Promise<T>): { readonly done: boolean; readonly promise: Promise<T> } {
  const state = { done: false, promise };
  promise.then(() => (state.done = true), () => (state.done = true));
  return state;
}

describe("pages are written in order, by one writer", () => {
  it("the first page is written at once; pages pushed during that write go together in the next write", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    await queue.push("p1");
    expect(writes.batches).toEqual([["p1"]]);
    await queue.push("p2");
    await queue.push("p3");
    await settled();
    expect(writes.batches).toEqual([["p1"]]); // one write at a time
    writes.finish();
    await settled();
    expect(writes.batches).toEqual([["p1"], ["p2", "p3"]]);
    await queue.push("p4");
    writes.finish();
    await settled();
    expect(writes.batches).toEqual([["p1"], ["p2", "p3"], ["p4"]]);
    writes.finish();
    await queue.drain();
    expect(writes.waiting).toBe(0);
  });

  it("push returns once the page is queued, before it is written; drain returns once every page is written", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    const push = tracked(queue.push("p1"));
    await settled();
    expect(push.done).toBe(true);
    expect(writes.waiting).toBe(1);
    await queue.push("p2");
    const drain = tracked(queue.drain());
    await settled();
    expect(drain.done).toBe(false);
    writes.finish();
    await settled();
    expect(drain.done).toBe(false); // p2 is still being written
    expect(writes.batches).toEqual([["p1"], ["p2"]]);
    writes.finish();
    await drain.promise;
    expect(drain.done).toBe(true);
  });

  it("a queue that was never pushed to drains at once", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 1);
    await queue.drain();
    expect(writes.batches).toEqual([]);
  });

  it("a writer that went idle starts again for the next page", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 2);
    await queue.push("p1");
    writes.finish();
    await queue.drain();
    await queue.push("p2");
    expect(writes.batches).toEqual([["p1"], ["p2"]]);
    writes.finish();
    await queue.drain();
  });
});

describe("at most `ahead` pages wait", () => {
  it("with two waiting, a third push waits until the writer takes them, then is written in the write after", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 2);
    await queue.push("p1"); // taken by the first write at once
    await queue.push("p2");
    await queue.push("p3"); // two wait now
    const third = tracked(queue.push("p4"));
    await settled();
    expect(third.done).toBe(false);
    writes.finish(); // the writer takes p2 and p3: room again
    await settled();
    expect(third.done).toBe(true);
    expect(writes.batches).toEqual([["p1"], ["p2", "p3"]]);
    writes.finish();
    await settled();
    expect(writes.batches).toEqual([["p1"], ["p2", "p3"], ["p4"]]);
    writes.finish();
    await queue.drain();
  });

  it("with one allowed, a second page waits for the first to be taken", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 1);
    await queue.push("p1");
    await queue.push("p2");
    const waiting = tracked(queue.push("p3"));
    await settled();
    expect(waiting.done).toBe(false);
    writes.finish();
    await settled();
    expect(waiting.done).toBe(true);
    writes.finish();
    await settled();
    writes.finish();
    await queue.drain();
    expect(writes.batches).toEqual([["p1"], ["p2"], ["p3"]]);
  });

  it("several pushes waiting for room all go on when the writer takes the queue", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 1);
    await queue.push("p1");
    await queue.push("p2");
    const a = tracked(queue.push("p3"));
    const b = tracked(queue.push("p4"));
    await settled();
    expect([a.done, b.done]).toEqual([false, false]);
    writes.finish(); // takes p2; p3 gets the one place, p4 waits on
    await settled();
    expect(a.done).toBe(true);
    expect(b.done).toBe(false);
    writes.finish(); // takes p3
    await settled();
    expect(b.done).toBe(true);
    writes.finish();
    await settled();
    writes.finish();
    await queue.drain();
    expect(writes.batches).toEqual([["p1"], ["p2"], ["p3"], ["p4"]]);
  });
});

describe("the first failure stops the writing", () => {
  it("pages queued behind a failed write are never written; the next push and drain throw that failure", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    const refused = new Error("Excel refused the write");
    await queue.push("p1");
    await queue.push("p2");
    writes.fail(refused);
    await settled();
    await expect(queue.push("p3")).rejects.toBe(refused);
    await expect(queue.drain()).rejects.toBe(refused);
    expect(writes.batches).toEqual([["p1"]]);
    expect(writes.waiting).toBe(0);
  });

  it("a push waiting for room when the write fails throws that failure and queues nothing", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 1);
    const refused = new Error("too large");
    await queue.push("p1");
    await queue.push("p2");
    const waiting = queue.push("p3");
    writes.fail(refused);
    await expect(waiting).rejects.toBe(refused);
    await expect(queue.drain()).rejects.toBe(refused);
    expect(writes.batches).toEqual([["p1"]]);
  });

  it("a failure of a later write is the one thrown; the pages written before it stay written", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    const refused = new Error("second write refused");
    await queue.push("p1");
    await queue.push("p2");
    writes.finish();
    await settled();
    await queue.push("p3"); // behind the write of p2
    writes.fail(refused);
    await expect(queue.drain()).rejects.toBe(refused);
    expect(writes.batches).toEqual([["p1"], ["p2"]]);
  });
});

describe("settle: stop, wait for the write under way, drop the rest", () => {
  it("waits for the write under way, never writes what was queued, and refuses pages after it", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    await queue.push("p1");
    await queue.push("p2");
    const settle = tracked(queue.settle());
    await settled();
    expect(settle.done).toBe(false); // p1 is still being written
    writes.finish();
    await settle.promise;
    await settled();
    expect(writes.batches).toEqual([["p1"]]);
    expect(writes.waiting).toBe(0);
    await expect(queue.push("p3")).rejects.toThrow("stopped");
    expect(writes.batches).toEqual([["p1"]]);
  });

  it("after a failure, settle keeps that failure: drain still throws it, not \"stopped\"", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    const refused = new Error("Excel refused the write");
    await queue.push("p1");
    writes.fail(refused);
    await settled();
    await queue.settle();
    await expect(queue.drain()).rejects.toBe(refused);
  });

  it("a write that fails while settle waits does not replace \"stopped\"", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    await queue.push("p1");
    const settle = queue.settle();
    writes.fail(new Error("late failure"));
    await settle;
    await expect(queue.drain()).rejects.toThrow("stopped");
  });

  it("settle on an idle queue returns at once and stops it", async () => {
    const writes = new HeldWrites();
    const queue = new BatchedWrites(writes.write, 10);
    await queue.settle();
    await expect(queue.push("p1")).rejects.toThrow("stopped");
    expect(writes.batches).toEqual([]);
  });
});
