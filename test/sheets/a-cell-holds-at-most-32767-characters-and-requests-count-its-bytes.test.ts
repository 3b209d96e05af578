/**
 * A text longer than a cell holds (32,767 characters) is cut to exactly that, ending in a marker that says how
 * long it was, never in the middle of an emoji; what a value costs in a request is what its JSON takes in UTF-8.
 */
import { CELL_TEXT_LIMIT, cutMarker, fitCell, jsonStringBytes, plainBytes, typedBytes, typedCell } from "../../src/sheets/port/cells";

const utf8 = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

describe("a cell's text", () => {
  it("keeps a text of exactly 32,767 characters whole, and cuts one character more to 32,767 with the marker", () => {
    const full = "a".repeat(CELL_TEXT_LIMIT);
    expect(fitCell(full)).toBe(full);
    const over = `${full}b`;
    const cut = fitCell(over);
    expect(cut).toHaveLength(CELL_TEXT_LIMIT);
    expect(cut).toBe("a".repeat(CELL_TEXT_LIMIT - cutMarker(32_768).length) + " … [cut by Spend Sync: 32768 characters in all]");
    expect(typedCell(over)).toEqual({ type: "String", basicValue: cut });
  });

  it("never cuts an emoji in two: the cut moves one character back", () => {
    const marker = cutMarker(40_000);
    const end = CELL_TEXT_LIMIT - marker.length;
    const before = "a".repeat(end - 1);
    const text = `${before}😀${"z".repeat(40_000 - end - 1)}`;
    expect(text).toHaveLength(40_000);
    expect(fitCell(text)).toBe(before + marker);
    // A low half at the cut (the pair ends exactly there) is not moved.
    const pairBefore = `${"a".repeat(end - 2)}😀${"z".repeat(40_000 - end)}`;
    expect(fitCell(pairBefore)).toBe(`${"a".repeat(end - 2)}😀${marker}`);
    // The first character past the Basic Plane (U+10000, high half \ud800) too.
    expect(fitCell(`${before}\ud800\udc00${"z".repeat(40_000 - end - 1)}`)).toBe(before + marker);
    // And the last character there is (U+10FFFF, high half \udbff); a character just below the halves (U+D7FF) is cut as any other.
    expect(fitCell(`${before}\udbff\udfff${"z".repeat(40_000 - end - 1)}`)).toBe(before + marker);
    expect(fitCell(`${before}\ud7ff${"z".repeat(40_000 - end)}`)).toBe(`${before}\ud7ff${marker}`);
  });
});

describe("bytes a value costs in a request", () => {
  it("a string costs its JSON in UTF-8: escapes, accents, CJK, emoji and lone halves", () => {
    for (const text of ["", "plain", 'q"uote\\', "tab\tnl\nbs\b\f\r", "\u0001\u001f", "é", "日本", "😀", "a\ud83d", "\ude00b", "\ud83d", "\ud83dx", "\ud83d\ud83d", 'say "hi"', "\ud800\udc00"]) {
      expect([text, jsonStringBytes(text)]).toEqual([text, utf8(text)]);
    }
  });

  it("a plain value costs its JSON and a comma; a typed one its object", () => {
    expect(plainBytes("abc")).toBe(utf8("abc") + 1);
    expect(plainBytes(null)).toBe(utf8(null) + 1);
    expect(plainBytes(undefined)).toBe(utf8(null) + 1);
    expect(plainBytes(true)).toBe(6);
    expect(plainBytes(false)).toBe(6);
    expect(plainBytes(12.5)).toBe(25);
    expect(typedBytes("abc")).toBe(utf8({ type: "String", basicValue: "abc" }) + 1);
    expect(typedBytes("x".repeat(40_000))).toBe(utf8({ type: "String", basicValue: fitCell("x".repeat(40_000)) }) + 1);
    expect(typedBytes(7)).toBe(60);
  });
});
