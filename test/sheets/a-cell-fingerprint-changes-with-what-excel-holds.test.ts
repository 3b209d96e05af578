/**
 * A cell's fingerprint (src/sheets/edits/row-hashes.ts, pure: plain calls, no Excel) changes with what Excel holds in the
 * cell and only with that: text "12" and the number 12 differ, TRUE and FALSE and an empty cell differ; a number is
 * taken at Excel's 15 significant digits; a text longer than a cell is taken as the cell keeps it. Fingerprints are
 * kept in the workbook's snapshot, so they are the same from one version to the next (the literal values below):
 * otherwise every cell of a table loaded before an upgrade would look typed over.
 */
import { fitCell, CELL_TEXT_LIMIT } from "../../src/sheets/port/cells";
import { HASH_CHARS, cellHash, digestOf, hashAt, rowHashes } from "../../src/sheets/edits/row-hashes";

describe("a cell's fingerprint", () => {
  it("is the same as in earlier versions, for every kind of value", () => {
    const values = ["", "12", 12, true, false, "Taxi", 0, -1.5, 123456789012345.67, 1e-7, Infinity];
    expect(values.map((v) => cellHash(v))).toEqual(["ToX", "q1y", "ya_", "Vme", "TWz", "JzS", "03l", "9Ml", "kvW", "a71", "gdA"]);
    expect(digestOf(rowHashes(["E1", 12, "Taxi", true], [0, 1, 2, 3]))).toBe("5_gBVjRQ");
  });

  it("an empty, missing or null cell is one and the same", () => {
    expect([cellHash(undefined), cellHash(null)]).toEqual([cellHash(""), cellHash("")]);
  });

  it("a number is taken at Excel's 15 significant digits: what the cell keeps reads back as the same fingerprint", () => {
    expect(cellHash(0.1 + 0.2)).toBe(cellHash(0.3));
    expect(cellHash(123456789012345.67)).toBe(cellHash(123456789012346));
    expect(cellHash(-1234.5)).not.toBe(cellHash(1234.5));
    expect(cellHash(1234.5)).not.toBe(cellHash(1234.6));
    expect(cellHash(1e300)).not.toBe(cellHash(1e-300));
    expect(cellHash(2 ** 40)).not.toBe(cellHash(2 ** 40 + 1));
  });

  it("a text longer than a cell is taken as the cell keeps it", () => {
    const long = "x".repeat(CELL_TEXT_LIMIT + 5);
    expect(cellHash(long)).toBe(cellHash(fitCell(long)));
    expect(cellHash(long)).toBe("qxw");
    expect(cellHash("x".repeat(CELL_TEXT_LIMIT))).not.toBe(cellHash("x".repeat(CELL_TEXT_LIMIT - 1)));
  });

  it("text is read whole: a change of any character changes it", () => {
    const cells = ["Taxi", "Taxj", "Uaxi", "taxi", "Taxi ", "Taxi\u00e9"];
    expect(new Set(cells.map(cellHash)).size).toBe(cells.length);
  });
});

describe("a row's fingerprints", () => {
  const row = ["E1", 12, "Taxi", true, "", 0.5];

  it("are each hashed column's fingerprint in turn, three characters each; one is read back by its place", () => {
    const hashes = rowHashes(row, [0, 2, 5]);
    expect(hashes).toBe(cellHash("E1") + cellHash("Taxi") + cellHash(0.5));
    expect(hashes).toHaveLength(3 * HASH_CHARS);
    expect([hashAt(hashes, 0), hashAt(hashes, 1), hashAt(hashes, 2), hashAt(hashes, 3)]).toEqual([cellHash("E1"), cellHash("Taxi"), cellHash(0.5), ""]);
    expect(rowHashes(row, [])).toBe("");
    expect(rowHashes(row, [4, 9])).toBe(cellHash("") + cellHash(""));
  });

  it("a row's digest is eight characters and moves when any cell moves", () => {
    const digest = digestOf(rowHashes(row, [0, 1, 2, 3, 4, 5]));
    expect(digest).toHaveLength(8);
    for (let c = 0; c < row.length; c++) {
      const changed = [...row];
      changed[c] = c === 4 ? "typed" : typeof row[c] === "number" ? (row[c] as number) + 1 : typeof row[c] === "boolean" ? false : `${row[c]}!`;
      expect([c, digestOf(rowHashes(changed, [0, 1, 2, 3, 4, 5]))]).not.toEqual([c, digest]);
    }
    expect(digestOf("")).not.toBe(digestOf("A"));
  });
});
