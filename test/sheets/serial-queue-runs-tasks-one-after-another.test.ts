/**
 * The serial queue the writers share (src/sheets/port/serial-queue.ts): tasks start in the order queued, each once
 * the one before has settled; a failure goes to its own caller and the next task runs all the same; `settled`
 * waits for every task, those queued while it waits too, and for work it follows, and never rejects. Every task
 * is held by a gate the test opens, so each order is decided by the test, not by timing.
 */
import { SerialQueue } from "../../src/sheets/port/serial-queue";
import { gate, settle, watch } from "../support/settle";

/** A task that logs its start, then waits for its gate: `pass` resolves it with `name`, `fail` rejects it. */
function heldTask(log: string[], name: string) {
  const { open, opened } = gate();
  let failure: Error | null = null;
  const task = async () => {
    log.push(`start ${name}`);
    await opened;
    if (failure) throw failure;
    return name;
  };
  return {
    task,
    pass: open,
    fail: (error: Error) => {
      failure = error;
      open();
    },
  };
}

describe("a serial queue", () => {
  it("starts each task once the one before it has settled, in the order queued; each caller gets its own task's value", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const [a, b, c] = ["a", "b", "c"].map((name) => heldTask(log, name));
    const results = [queue.run(a.task), queue.run(b.task), queue.run(c.task)];
    await settle();
    expect(log).toEqual(["start a"]);
    b.pass(); // b's gate is open, but a is still running: b waits its turn
    await settle();
    expect(log).toEqual(["start a"]);
    a.pass();
    await settle();
    expect(log).toEqual(["start a", "start b", "start c"]);
    c.pass();
    expect(await Promise.all(results)).toEqual(["a", "b", "c"]);
  });

  it("a failed task rejects its own caller only: the next task runs all the same", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const [a, b] = ["a", "b"].map((name) => heldTask(log, name));
    const first = queue.run(a.task);
    const second = queue.run(b.task);
    const refused = new Error("refused");
    a.fail(refused);
    await expect(first).rejects.toBe(refused);
    b.pass();
    await expect(second).resolves.toBe("b");
    expect(log).toEqual(["start a", "start b"]);
  });

  it("a task that throws before it awaits anything does not stop the next one either", async () => {
    const queue = new SerialQueue();
    const thrown = queue.run(() => {
      throw new Error("at once");
    });
    await expect(thrown).rejects.toThrow("at once");
    await expect(queue.run(async () => 2)).resolves.toBe(2);
  });
});

describe("settled", () => {
  it("resolves at once on a queue that ran nothing", async () => {
    await new SerialQueue().settled();
  });

  it("waits for every task, a failed one and one queued while it waits included, and never rejects", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const [a, b, c] = ["a", "b", "c"].map((name) => heldTask(log, name));
    queue.run(a.task).catch(() => "observed by the test");
    void queue.run(b.task);
    const all = watch(queue.settled());
    a.fail(new Error("refused"));
    await settle();
    expect(all.done).toBe(false); // b is still running
    void queue.run(c.task); // queued while settled waits
    b.pass();
    await settle();
    expect(all.done).toBe(false); // c is running now
    c.pass();
    await settle();
    expect([all.done, all.failed]).toEqual([true, null]);
    expect(log).toEqual(["start a", "start b", "start c"]);
  });

  it("waits for work it follows, whatever its outcome, beside the tasks it runs", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = heldTask(log, "a");
    const followed = heldTask(log, "followed");
    const work = followed.task(); // started elsewhere, at once
    work.catch(() => "observed by the test");
    queue.follow(work);
    void queue.run(a.task);
    const all = watch(queue.settled());
    await settle();
    expect(log).toEqual(["start followed"]); // a task queued after followed work waits for it too
    followed.fail(new Error("refused"));
    await settle();
    expect(log).toEqual(["start followed", "start a"]);
    expect(all.done).toBe(false);
    a.pass();
    await settle();
    expect([all.done, all.failed]).toEqual([true, null]);
  });
});
