/**
 * A service's text becomes an Excel date or timestamp only when it is a real one, and a cell reads back as exactly
 * what was loaded (src/sheets/port/values.ts, src/sheets/edits/tracked-values.ts; pure: plain calls, no Excel): a date that
 * is not in the calendar, or a timestamp with a wrong separator, digit or range, stays the text sent, as the
 * domain's full reading would leave it; a loaded timestamp's cell reads back as the same second, never the one before;
 * the tracked values compare as canonical text, every field counting.
 */
import { normalizeTimestamp } from "../../src/domain";
import { toCell } from "../../src/sheets/columns";
import { serialToDate, serialToTimestamp, timestampToSerial } from "../../src/sheets/port/values";
import { canonical, canonicalTimestamp, sameTracked, trackedOf, trackedOfUnchecked, type TrackedValues } from "../../src/sheets/edits/tracked-values";

const DAY_MS = 86_400_000;
const serialOf = (iso: string) => Date.parse(iso) / DAY_MS + 25569;

describe("dates", () => {
  it.each(["2000-02-29", "2024-02-29", "2026-01-31", "2026-04-30", "2026-06-30", "2026-09-30", "2026-11-30", "2026-12-31", "2026-03-01", "1900-01-01", "1900-03-01"])(
    "%s is a date: its serial", (text) => {
      expect(toCell("date", text)).toBe(serialOf(`${text}T00:00:00Z`));
    });

  it.each([
    "1900-02-29", "2100-02-29", "2026-04-31", "2026-06-31", "2026-09-31", "2026-11-31", "2026-03-00", "2026-03-3/", "2026-0/-10",
    "2026/03-31", "2026-03/31", "2026-03-3:", "202/-03-31", "2026-0:-01", "2026-13-01", "1899-12-31", "2026-03-31T00:00:00Z", "2026-03-311",
  ])("%s is not in the calendar: it stays the text sent", (text) => {
    expect(toCell("date", text)).toBe(text);
  });

  it("a serial a hair below midnight (a formula's noise) reads as the day Excel shows; a whole serial as its own day", () => {
    expect([serialToDate(46113 - 1e-9), serialToDate(46112), serialToDate(46112.75)]).toEqual(["2026-04-01", "2026-03-31", "2026-03-31"]);
  });
});

describe("timestamps", () => {
  it.each([
    "2026-03-31T12:00-00Z", "2026-03-31T12-00:00Z", "2026-03-31T12:00:00A", "2026-03-31T12:00:00.250A", "2026-03-31T12:00:00,250Z",
    "2026-03-31T1/:00:00Z", "2026-03-31T-1:00:00Z", "2026-03-31T12:/0:00Z", "2026-03-31T12:-1:00Z", "2026-03-31T12:00:/0Z", "2026-03-31T12:00:-1Z",
    "2026-03-31T12:00:00./00Z", "2026-03-31T12:00:00.-10Z", "2026-03-31T12:00:60Z", "2026-02-30T12:00:00Z", "2026/03-31T12:00:00Z",
    "2026-03-31X12:00:00Z", "2026-03-31T1::00:00Z",
  ])("%s is not a timestamp (the full reading refuses it too): it stays the text sent, as cell and as paid_at", (text) => {
    expect(normalizeTimestamp(text)).toBeNull();
    expect(toCell("timestamp", text)).toBe(text);
    expect(timestampToSerial(text)).toBeNull();
    expect(canonical("paid_at", text)).toBe(text);
  });

  it("0000 is refused as the domain refuses it; other early years are read", () => {
    expect(toCell("timestamp", "0000-06-01T00:00:00Z")).toBe("0000-06-01T00:00:00Z");
    expect(toCell("timestamp", "0999-06-01T00:00:00Z")).toBe(serialOf("0999-06-01T00:00:00Z"));
  });

  it("every second of a minute reads back from its cell as the second loaded, never the one before", () => {
    for (let s = 0; s < 60; s++) {
      for (const base of ["2026-11-02T00:00", "2026-11-02T13:47", "1999-12-31T23:59"]) {
        const loaded = `${base}:${String(s).padStart(2, "0")}Z`;
        const cell = toCell("timestamp", loaded) as number;
        expect([loaded, canonical("paid_at", cell)]).toEqual([loaded, loaded]);
      }
    }
  });

  it("a paid_at with milliseconds, read for its cell and at once for its tracked value, gives both: the second it was loaded at", () => {
    for (const loaded of ["2026-11-02T09:15:00.700Z", "2026-11-02T09:15:00.500Z", "2026-11-02T09:15:00.999Z"]) {
      const cell = toCell("timestamp", loaded) as number;
      expect(cell).toBe(serialOf(loaded));
      expect(canonical("paid_at", loaded)).toBe("2026-11-02T09:15:00Z");
      expect(canonical("paid_at", cell)).toBe("2026-11-02T09:15:00Z");
    }
  });

  it("a cell shows its timestamp rounded to the nearest second, as Excel does", () => {
    expect(serialToTimestamp(serialOf("2026-03-31T12:00:00.600Z"))).toBe("2026-03-31T12:00:01Z");
    expect(serialToTimestamp(serialOf("2026-03-31T12:00:00.400Z"))).toBe("2026-03-31T12:00:00Z");
    expect(serialToTimestamp(serialOf("2026-11-02T00:00:01Z"))).toBe("2026-11-02T00:00:01Z");
  });
});

describe("tracked values as canonical text", () => {
  it("a state is trimmed and lower case; ids trimmed, their case kept; empty or missing is \"\"", () => {
    expect([canonical("state", "  Paid "), canonical("accounted_id", " Acc-1 "), canonical("paid_id", 42), canonical("paid_id", null), canonical("state", undefined)])
      .toEqual(["paid", "Acc-1", "42", "", ""]);
  });

  it("paid_at: empty, blank or missing is \"\"; a serial is its second; a timestamp in any zone is its UTC second; other text stays as typed", () => {
    expect([canonicalTimestamp(null), canonicalTimestamp(undefined), canonicalTimestamp(""), canonicalTimestamp("   ")]).toEqual(["", "", "", ""]);
    expect(canonicalTimestamp(serialOf("2026-03-31T12:00:00Z"))).toBe("2026-03-31T12:00:00Z");
    expect(canonicalTimestamp(" 2026-03-31T14:00:00.250+02:00 ")).toBe("2026-03-31T12:00:00Z");
    expect(canonicalTimestamp("2026-03-31T14:00:00+02:00")).toBe("2026-03-31T12:00:00Z");
    expect(canonicalTimestamp("2026-03-31T12:00:00.999Z")).toBe("2026-03-31T12:00:00Z");
    expect(canonicalTimestamp(" yesterday ")).toBe("yesterday");
  });

  it("a record's tracked values: nulls are empty, the state lower case, paid_at to the second", () => {
    expect(trackedOf({ state: "Paid", accounted_id: null, paid_id: " P-1 ", paid_at: "2026-03-31T12:00:00.500Z" }))
      .toEqual({ state: "paid", accounted_id: "", paid_id: "P-1", paid_at: "2026-03-31T12:00:00Z" });
  });

  it("a record that does not match the API: each field as the text it holds, whatever its type", () => {
    expect(trackedOfUnchecked({ state: 7, accounted_id: { a: [1] }, paid_id: true, paid_at: null })).toEqual({ state: "7", accounted_id: '{"a":[1]}', paid_id: "true", paid_at: "" });
    expect(trackedOfUnchecked({ accounted_id: "Acc-1" })).toEqual({ state: "", accounted_id: "Acc-1", paid_id: "", paid_at: "" });
    expect(trackedOfUnchecked({ state: "PAID", paid_at: "2026-03-31T12:00:00Z" })).toEqual({ state: "paid", accounted_id: "", paid_id: "", paid_at: "2026-03-31T12:00:00Z" });
  });

  it("two tracked values are the same only when every field is", () => {
    const a: TrackedValues = { state: "paid", accounted_id: "A", paid_id: "P", paid_at: "2026-03-31T12:00:00Z" };
    expect(sameTracked(a, { ...a })).toBe(true);
    for (const key of ["state", "accounted_id", "paid_id", "paid_at"] as const) expect([key, sameTracked(a, { ...a, [key]: "x" })]).toEqual([key, false]);
  });
});
