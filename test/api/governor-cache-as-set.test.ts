/**
 * The governor's cache keeps what the user set, and counts what it keeps right: results for 5 minutes by
 * default, none when the time is set to 0, all of them forgotten by "Refresh data" (clear); every hit counted;
 * a grid of exactly the cell bound, or results adding up to it exactly, are kept; an expired result gives its
 * cells back, so that what replaces it is kept too; an empty grid takes no room, and a null result is kept.
 */
import { DEFAULT_CACHE_MS, MAX_CACHED_CELLS, RequestGovernor } from "../../src/api";

/** A spilled grid of `cells` cells in one row, without the memory of one (a sparse array). */
const row = (cells: number) => [new Array<number>(cells)];

describe("how long a result is kept", () => {
  it("5 minutes by default, by the governor's clock", async () => {
    expect(DEFAULT_CACHE_MS).toBe(300_000);
    let now = 0;
    const governor = new RequestGovernor(undefined, () => now);
    let n = 0;
    const fetch = async () => ++n;
    expect(await governor.run("k", fetch)).toBe(1);
    now = 299_999;
    expect(await governor.run("k", fetch)).toBe(1);
    now = 300_000;
    expect(await governor.run("k", fetch)).toBe(2);
  });

  it("not at all when the time is 0: every call fetches, nothing is held", async () => {
    const governor = new RequestGovernor(0, () => 0);
    let n = 0;
    expect(await governor.run("k", async () => ++n)).toBe(1);
    expect(governor.size).toBe(0);
    expect(await governor.run("k", async () => ++n)).toBe(2);
    expect(governor.stats).toMatchObject({ calls: 2, fetches: 2, hits: 0 });
  });

  it("until Refresh data clears it: the next call fetches again", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    let n = 0;
    await governor.run("a", async () => ++n);
    await governor.run("b", async () => ++n);
    governor.clear();
    expect(governor.size).toBe(0);
    expect(governor.peek("a")).toBeUndefined();
    expect(await governor.run("a", async () => ++n)).toBe(3);
  });
});

it("every hit is counted", async () => {
  const governor = new RequestGovernor(60_000, () => 0);
  await governor.run("k", async () => 1);
  await governor.run("k", async () => 2);
  await governor.run("k", async () => 3);
  expect(governor.stats).toMatchObject({ calls: 3, fetches: 1, hits: 2, shared: 0 });
});

describe("the cell bound", () => {
  it("a grid of exactly the bound is kept", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    await governor.run("all", async () => row(MAX_CACHED_CELLS));
    expect(governor.peek("all")).toBeDefined();
  });

  it("two grids adding up to exactly the bound are both kept", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    await governor.run("a", async () => row(MAX_CACHED_CELLS / 2));
    await governor.run("b", async () => row(MAX_CACHED_CELLS / 2));
    expect([governor.peek("a") !== undefined, governor.peek("b") !== undefined]).toEqual([true, true]);
  });

  it("an expired grid gives its cells back: the two that follow it are both kept", async () => {
    let now = 0;
    const governor = new RequestGovernor(1000, () => now);
    await governor.run("old", async () => row(MAX_CACHED_CELLS));
    now = 1000;
    expect(governor.peek("old")).toBeUndefined();
    await governor.run("a", async () => row(MAX_CACHED_CELLS / 2));
    await governor.run("b", async () => row(MAX_CACHED_CELLS / 2));
    expect([governor.peek("a") !== undefined, governor.peek("b") !== undefined]).toEqual([true, true]);
  });

  it("an empty grid holds no cells: kept beside results that fill the bound, dropping none of them", async () => {
    const governor = new RequestGovernor(60_000, () => 0);
    await governor.run("a", async () => row(MAX_CACHED_CELLS / 2));
    await governor.run("b", async () => row(MAX_CACHED_CELLS / 2));
    await governor.run("none", async () => []);
    expect(["a", "b", "none"].map((k) => governor.peek(k))).toEqual([row(MAX_CACHED_CELLS / 2), row(MAX_CACHED_CELLS / 2), []]);
  });
});

it("a result of null is kept like any other", async () => {
  const governor = new RequestGovernor(60_000, () => 0);
  let n = 0;
  await governor.run("k", async () => (n++, null));
  expect(await governor.run("k", async () => (n++, null))).toBeNull();
  expect([n, governor.stats.hits]).toEqual([1, 1]);
});
