/**
 * What every =SPEND.* call goes through (src/functions/runtime.ts): the key under which a result is shared (two
 * calls that differ in anything must never share one), formula value preview, the deadline's message, and
 * the form each Excel takes results in.
 */
import { Session, memoryStorage, type SpendClient } from "../../src/api";
import { DeadlineError, PreviewError, callKey, governed, isInValuePreview, previewOf, resultForm, useSession, withDeadline } from "../../src/functions/runtime";
import { DEFAULT_PROFILE, PROFILES } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";

afterAll(() => useExcelProfile(DEFAULT_PROFILE));

const client = (baseUrl: string, enterpriseId: string) => ({ baseUrl, enterpriseId }) as SpendClient;

describe("callKey: the governor's key of a call", () => {
  const base = callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-01", undefined, ["user"]]);

  it("differs when any one part differs: the service, the enterprise, the function or any argument", () => {
    const variants = [
      callKey(client("https://b.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-01", undefined, ["user"]]),
      callKey(client("https://a.example/v1", "E2"), "EXPENSES", ["S1", "paid", "2026-01-01", undefined, ["user"]]),
      callKey(client("https://a.example/v1", "E1"), "ALLOWANCES", ["S1", "paid", "2026-01-01", undefined, ["user"]]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S2", "paid", "2026-01-01", undefined, ["user"]]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "accounted", "2026-01-01", undefined, ["user"]]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-02", undefined, ["user"]]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-01", "2026-01-01", ["user"]]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-01", undefined, []]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-01", undefined, ["user", "fund"]]),
      callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", undefined, "2026-01-01", ["user"]]),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  it("is the same for the same call", () => {
    expect(callKey(client("https://a.example/v1", "E1"), "EXPENSES", ["S1", "paid", "2026-01-01", undefined, ["user"]])).toBe(base);
  });
});

describe("formula value preview", () => {
  it("is on for true and \"true\" in any case, off for everything else", () => {
    for (const on of [true, "true", "TRUE", "True"]) expect(isInValuePreview({ isInValuePreview: on } as unknown as CustomFunctions.Invocation)).toBe(true);
    for (const off of [false, "false", "FALSE", "", "yes", 1, undefined, null]) {
      expect(isInValuePreview({ isInValuePreview: off } as unknown as CustomFunctions.Invocation)).toBe(false);
    }
    expect(isInValuePreview(undefined)).toBe(false);
  });

  it("answers from the cache only, and says how to load when nothing is cached", async () => {
    const session = new Session(memoryStorage());
    await session.governor.run("k", async () => [["cached"]]);
    expect(previewOf(session, "k")).toEqual([["cached"]]);
    expect(() => previewOf(session, "other")).toThrow(new PreviewError("Formula preview does not call the service: press Enter to load."));
  });

  it("a call in preview never reaches its fetch; the same call outside preview does, under the same key", async () => {
    const session = new Session(memoryStorage());
    session.connect({ baseUrl: "https://a.example/v1", enterpriseId: "3f2504e0-4f89-41d3-9a0c-0305e82c3301", apiKey: "k".repeat(32) });
    useSession(session);
    const fetch = jest.fn(async () => [["fresh"]]);
    const preview = { isInValuePreview: "true" } as CustomFunctions.Invocation;
    await expect(governed("CARDS", [[]], preview, fetch)).rejects.toBeInstanceOf(PreviewError);
    expect(fetch).not.toHaveBeenCalled();
    await expect(governed("CARDS", [[]], undefined, fetch)).resolves.toEqual([["fresh"]]);
    await expect(governed("CARDS", [[]], preview, fetch)).resolves.toEqual([["fresh"]]);
    await expect(governed("CARDS", [["user"]], preview, fetch)).rejects.toBeInstanceOf(PreviewError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("withDeadline", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("gives up at the deadline, aborts the work and says how long it waited, in ms under a second and in s above", async () => {
    for (const [ms, said] of [[250, "250 ms"], [999, "999 ms"], [1000, "1 s"], [1499, "1 s"], [1500, "2 s"], [60_000, "60 s"]] as const) {
      let signal: AbortSignal | undefined;
      const call = withDeadline((s) => {
        signal = s;
        return new Promise<never>(() => undefined);
      }, ms);
      const outcome = expect(call).rejects.toEqual(new DeadlineError(`no answer within ${said}. Try again with Refresh data.`));
      await jest.advanceTimersByTimeAsync(ms - 1);
      expect(signal?.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await outcome;
      expect(signal?.aborted).toBe(true);
    }
  });

  it("an answer before the deadline is the call's, and leaves no timer behind", async () => {
    const call = withDeadline(async () => "done", 1000);
    await expect(call).resolves.toBe("done");
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe("resultForm: the form each Excel takes a function's results in", () => {
  it("plain values without CustomFunctionsRuntime 1.4, Double with ExcelApi 1.19, FormattedNumber in between", () => {
    const expected: Record<string, string> = {
      "office-2021": "plain", "office-2024": "plain", "m365-2302": "formatted-number", "m365-current": "double", web: "double",
    };
    expect(PROFILES.map((p) => p.id).sort()).toEqual(Object.keys(expected).sort());
    for (const profile of PROFILES) {
      useExcelProfile(profile.id);
      expect([profile.id, resultForm()]).toEqual([profile.id, expected[profile.id]]);
    }
  });

  it("an Excel with CustomFunctionsRuntime 1.4 and ExcelApi 1.18 takes FormattedNumber; with 1.19, Double", () => {
    const m365 = PROFILES.find((p) => p.id === "m365-current")!;
    useExcelProfile({ ...m365, sets: { ...m365.sets, ExcelApi: "1.18", CustomFunctionsRuntime: "1.4" } });
    expect(resultForm()).toBe("formatted-number");
    useExcelProfile({ ...m365, sets: { ...m365.sets, ExcelApi: "1.19", CustomFunctionsRuntime: "1.4" } });
    expect(resultForm()).toBe("double");
  });
});

describe("resultForm without Office", () => {
  const office = (globalThis as { Office?: unknown }).Office;
  afterEach(() => ((globalThis as { Office?: unknown }).Office = office));

  it("plain values when there is no Office, no context or no requirements to ask", () => {
    for (const without of [undefined, {}, { context: {} }, { context: { requirements: null } }]) {
      (globalThis as { Office?: unknown }).Office = without;
      expect(resultForm()).toBe("plain");
    }
  });
});
