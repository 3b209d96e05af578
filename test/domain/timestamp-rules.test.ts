/**
 * The date and time rules themselves, as a user meets them in a Paid at cell, a PATCH and the service's
 * answers: a date-time with a zone is read to the UTC instant it names (offsets either way, fractions to the
 * millisecond), an impossible calendar date or clock is refused as a format, an instant outside 0001–9999 as a
 * range, and the wire form the service takes is told apart from the forms a person writes. (timestamps.test.ts
 * holds the fast checks to these answers over large corpora; a mistake shared by both would pass there.)
 */
import { checkTimestamp, formatTimestamp, isIsoDate, isValidTimestamp, normalizeTimestamp, wireFormIssue } from "../../src/domain";

describe("a date-time with a zone is read to its UTC instant", () => {
  it.each([
    ["2026-03-31T12:00:00Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31T17:30:00+05:30", "2026-03-31T12:00:00Z"],
    ["2026-03-31T17:30:00+0530", "2026-03-31T12:00:00Z"],
    ["2026-03-31T07:00:00-05:00", "2026-03-31T12:00:00Z"],
    ["2026-03-31T23:59:00-23:59", "2026-04-01T23:58:00Z"],
    ["2026-01-01T00:30:00+01:00", "2025-12-31T23:30:00Z"],
    ["2024-03-01T00:00:00+00:01", "2024-02-29T23:59:00Z"],
    ["2026-03-31T12:00Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31 12:00:00Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31t12:00:00z", "2026-03-31T12:00:00Z"],
    ["  2026-03-31T12:00:00Z\n", "2026-03-31T12:00:00Z"],
    ["2026-03-31T12:00:00.5Z", "2026-03-31T12:00:00.500Z"],
    ["2026-03-31T12:00:00.25Z", "2026-03-31T12:00:00.250Z"],
    ["2026-03-31T12:00:00.123456789Z", "2026-03-31T12:00:00.123Z"],
    ["2026-03-31T12:00:00.0009Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31T12:00:07.000+00:00", "2026-03-31T12:00:07Z"],
    ["0024-05-01T10:00:00Z", "0024-05-01T10:00:00Z"],
    ["0099-12-31T23:59:59Z", "0099-12-31T23:59:59Z"],
    ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"],
    ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
    ["0001-01-01T00:00:00-00:01", "0001-01-01T00:01:00Z"],
    ["9999-12-31T23:59:00+00:01", "9999-12-31T23:58:00Z"],
  ])("%j is %s", (value, utc) => {
    expect(checkTimestamp(value)).toEqual({ ok: true, utc });
    expect(normalizeTimestamp(value)).toBe(utc);
    expect(isValidTimestamp(value)).toBe(true);
  });
});

describe("an impossible calendar date or clock is refused as a format", () => {
  it.each([
    "2023-02-29T12:00:00Z", // not a leap year
    "1900-02-29T12:00:00Z", // a century year that is not a leap year
    "2026-04-31T12:00:00Z", "2026-06-31T12:00:00Z", "2026-09-31T12:00:00Z", "2026-11-31T12:00:00Z",
    "2026-01-32T12:00:00Z", "2026-03-00T12:00:00Z", "2026-00-10T12:00:00Z", "2026-13-10T12:00:00Z",
    "2026-03-31T24:00:00Z", "2026-03-31T12:60:00Z", "2026-03-31T12:00:60Z",
    "2026-03-31T12:00:00+24:00", "2026-03-31T12:00:00+05:60",
    "2026-03-31T12:00:00", // no zone: which instant is meant cannot be known
    "2026-03-31", "2026-03-31T12Z", "2026-03-31T12:00:00.Z", "2026-03-31T12:00:00.1234567890Z", "+02026-03-31T12:00:00Z",
    "2026-03-31T12:00:00 Z", "2026-03-31T12:00:00UTC", "", "today",
  ])("%j", (value) => {
    expect(checkTimestamp(value)).toEqual({ ok: false, reason: "format" });
    expect(normalizeTimestamp(value)).toBeNull();
    expect(isValidTimestamp(value)).toBe(false);
  });

  it.each(["2024-02-29T12:00:00Z", "2000-02-29T12:00:00Z", "2026-04-30T12:00:00Z", "2026-12-31T23:59:59Z", "2026-01-31T00:00:00Z"])(
    "while %j is a real date-time", (value) => {
      expect(checkTimestamp(value).ok).toBe(true);
      expect(isValidTimestamp(value)).toBe(true);
    });
});

describe("an instant outside the years 0001–9999 is refused as a range", () => {
  it.each([
    "0000-12-31T23:59:59Z", "0001-01-01T00:00:00+00:01", "0001-01-01T00:59:59+01:00",
    "9999-12-31T23:59:59-00:01", "9999-12-31T23:00:00-01:00",
  ])("%j", (value) => {
    expect(checkTimestamp(value)).toEqual({ ok: false, reason: "range" });
    expect(normalizeTimestamp(value)).toBeNull();
    expect(isValidTimestamp(value)).toBe(false);
  });
});

describe("the service's wire form, told apart from what a person writes", () => {
  it.each([
    ["2026-03-31T12:00:00Z", null],
    ["2026-03-31T17:30:00+05:30", null],
    ["2026-03-31T12:00:00.250Z", null],
    [" 2026-03-31T12:00:00Z", "white space around it"],
    ["2026-03-31T12:00:00Z\t", "white space around it"],
    ["2026-03-31 12:00:00Z", "a space between the date and the time instead of T"],
    ["2026-03-31t12:00:00Z", "a lowercase t or z instead of T or Z"],
    ["2026-03-31T12:00:00z", "a lowercase t or z instead of T or Z"],
    ["2026-03-31T17:30:00+0530", "an offset without its colon (+0530 instead of +05:30)"],
    ["2026-03-31T07:00:00-0500", "an offset without its colon (-0500 instead of -05:00)"],
  ])("%j: %s", (value, issue) => {
    expect(wireFormIssue(value)).toBe(issue);
  });
});

describe("the service's form of an instant", () => {
  it.each([
    [Date.UTC(2026, 2, 31, 12), "2026-03-31T12:00:00Z"],
    [Date.UTC(2026, 2, 31, 12, 0, 0, 1), "2026-03-31T12:00:00.001Z"],
    [Date.UTC(2026, 2, 31, 12, 0, 0, 100), "2026-03-31T12:00:00.100Z"],
  ])("%i is %s: milliseconds only when set", (ms, text) => {
    expect(formatTimestamp(ms)).toBe(text);
  });
});

describe("a calendar date written YYYY-MM-DD", () => {
  it.each([["2024-02-29", true], ["2000-02-29", true], ["2023-02-29", false], ["1900-02-29", false], ["2100-02-29", false],
    ["2026-04-30", true], ["2026-04-31", false], ["2026-12-31", true], ["2026-13-01", false], ["2026-01-00", false], ["0001-01-01", true],
    ["2026-1-01", false], ["2026-01-01 ", false]])("%j: %s", (value, real) => {
    expect(isIsoDate(value)).toBe(real);
  });
});
