/** The request governor keeps results, never failures: a failed call is asked again on the next recalculation. */
import { RequestGovernor } from "../../src/api";

describe("the request governor", () => {
  it("does not keep a failure: the next call fetches again and gets the answer", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    const fetches: string[] = [];
    const failing = () => {
      fetches.push("fail");
      return Promise.reject(new Error("503"));
    };
    await expect(governor.run("k", failing)).rejects.toThrow("503");
    expect(governor.peek("k")).toBeUndefined();
    const value = await governor.run("k", async () => {
      fetches.push("ok");
      return 42;
    });
    expect(value).toBe(42);
    expect(fetches).toEqual(["fail", "ok"]);
    expect(governor.stats).toMatchObject({ calls: 2, fetches: 2, hits: 0 });
  });

  it("shares a failure only with the calls already waiting for it", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    let reject!: (e: Error) => void;
    const first = governor.run("k", () => new Promise<number>((_, r) => (reject = r)));
    const second = governor.run("k", () => Promise.resolve(1));
    reject(new Error("lost"));
    await expect(first).rejects.toThrow("lost");
    await expect(second).rejects.toThrow("lost");
    await expect(governor.run("k", () => Promise.resolve(2))).resolves.toBe(2);
  });

  it("keeps a result for cacheMs by its clock, then fetches again", async () => {
    let now = 0;
    const governor = new RequestGovernor(1000, () => now);
    let n = 0;
    const fetch = async () => ++n;
    expect(await governor.run("k", fetch)).toBe(1);
    now = 999;
    expect(await governor.run("k", fetch)).toBe(1);
    now = 1000;
    expect(await governor.run("k", fetch)).toBe(2);
  });

  it("share: the work takes no place itself, its value is cached under the key and shared while in flight; a failure is not kept", async () => {
    const governor = new RequestGovernor(60_000, () => 0, 1);
    let finish!: (v: number) => void;
    const held = governor.run("busy", () => new Promise<number>((r) => (finish = r))); // the one place
    let calls = 0;
    const work = () => {
      calls++;
      return Promise.resolve(7);
    };
    const [a, b] = [governor.share("k", work), governor.share("k", work)];
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(calls).toBe(1);
    expect(governor.peek("k")).toBe(7);
    // A request made from inside the work waits for a place like any other.
    let sent = false;
    const scheduled = governor.schedule(async () => (sent = true));
    await Promise.resolve();
    expect(sent).toBe(false);
    finish(1);
    await held;
    await scheduled;
    expect(sent).toBe(true);
    await expect(governor.share("f", () => Promise.reject(new Error("404")))).rejects.toThrow("404");
    expect(governor.peek("f")).toBeUndefined();
    expect(governor.stats).toMatchObject({ calls: 4, hits: 0, shared: 1, fetches: 2 });
  });

  it("share: a work that throws before it awaits anything is not kept either: the next call for its key runs its own", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    const thrown = governor.share("k", () => {
      throw new Error("the session is not ready");
    });
    await expect(thrown).rejects.toThrow("the session is not ready");
    let calls = 0;
    const again = await governor.share("k", async () => {
      calls++;
      return 5;
    });
    expect([again, calls, governor.peek("k")]).toEqual([5, 1, 5]);
    expect(governor.stats).toMatchObject({ calls: 2, hits: 0, shared: 0 });
  });
});
