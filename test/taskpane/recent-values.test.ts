/** The ids the pickers offer next time: most recent first, per enterprise and per card, on this device's storage only. */
import { memoryStorage } from "../../src/api";
import { guardedStorage } from "../../src/guarded-storage";
import { RECENT_LIMIT, RecentValues, recentKey } from "../../src/taskpane/recent-values";
import { cardLabel } from "../../src/taskpane/pickers";

const E1 = "11111111-1111-4111-8111-111111111111";
const E2 = "22222222-2222-4222-8222-222222222222";

describe("RecentValues", () => {
  it("offers the last used first, each id once, at most the limit", () => {
    const recent = new RecentValues(memoryStorage());
    for (let i = 0; i < RECENT_LIMIT + 3; i++) recent.remember(E1, "subsidiary", `sub-${i}`);
    recent.remember(E1, "subsidiary", "sub-5");
    const list = recent.list(E1, "subsidiary").map((v) => v.value);
    expect(list[0]).toBe("sub-5");
    expect(list).toHaveLength(RECENT_LIMIT);
    expect(new Set(list).size).toBe(RECENT_LIMIT);
    expect(list).not.toContain("sub-0");
  });

  it("keeps each enterprise's ids, and each card's billing periods, apart", () => {
    const recent = new RecentValues(memoryStorage());
    recent.remember(E1, "card", "card-a", "•••• 4242 — Ana Pérez");
    recent.remember(E1, { periodsOf: "card-a" }, "period-1");
    recent.remember(E1, { periodsOf: "card-b" }, "period-9");
    expect(recent.list(E2, "card")).toEqual([]);
    expect(recent.list(E1, { periodsOf: "card-a" }).map((v) => v.value)).toEqual(["period-1"]);
    expect(recent.list(E1, { periodsOf: "card-b" }).map((v) => v.value)).toEqual(["period-9"]);
    // Used again without a label (the cards list not fetched yet): the earlier label stays.
    recent.remember(E1, "card", "card-a");
    expect(recent.list(E1, "card")).toEqual([{ value: "card-a", label: "•••• 4242 — Ana Pérez" }]);
  });

  it("uses namespaced keys of the device storage, and reads a malformed entry as empty", () => {
    const storage = memoryStorage();
    const recent = new RecentValues(storage);
    recent.remember(E1, "subsidiary", "  sub-1  ");
    expect(JSON.parse(storage.getItem(`spendsync.recent.${E1}.subsidiary`)!)).toEqual([{ value: "sub-1", label: "" }]);
    expect(recentKey(E1, { periodsOf: "c" })).toBe(`spendsync.recent.${E1}.periods.c`);
    storage.setItem(recentKey(E1, "card"), "{not json");
    expect(recent.list(E1, "card")).toEqual([]);
    storage.setItem(recentKey(E1, "card"), JSON.stringify([{ value: 7 }, { value: "ok", label: ["x"] }, "x", null]));
    expect(recent.list(E1, "card")).toEqual([{ value: "ok", label: "" }]);
  });

  it("a blocked storage (a privacy mode) remembers for the session and never throws", () => {
    const blocked = guardedStorage(() => {
      throw Object.assign(new Error("blocked"), { name: "SecurityError" });
    });
    const recent = new RecentValues(blocked);
    recent.remember(E1, "subsidiary", "sub-1");
    expect(recent.list(E1, "subsidiary").map((v) => v.value)).toEqual(["sub-1"]);
    expect(blocked.blocked).toBe("SecurityError");
  });

  it("forgets an id", () => {
    const recent = new RecentValues(memoryStorage());
    recent.remember(E1, "subsidiary", "a");
    recent.remember(E1, "subsidiary", "b");
    recent.forget(E1, "subsidiary", "a");
    expect(recent.list(E1, "subsidiary").map((v) => v.value)).toEqual(["b"]);
  });
});

describe("cardLabel", () => {
  it("shows the last four digits and the holder, or the digits alone", () => {
    expect(cardLabel({ last_four_digits: "4242", user: { id: "u", first_name: "Ana", last_name: "Pérez", email: "", phone: "", internal_id: "", government_id: "" } })).toBe("•••• 4242 — Ana Pérez");
    expect(cardLabel({ last_four_digits: "0007" })).toBe("•••• 0007");
  });
});
