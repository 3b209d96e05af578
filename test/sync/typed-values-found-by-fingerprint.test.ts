/**
 * Values typed over the service's cells, found by the snapshot's fingerprints (typed-values.ts findTypedValues) on a
 * stand-in workbook: a cell that no longer matches is named with its header and value; a record on two rows, a
 * record without fingerprints or with another layout's, and a service column the user deleted are not reported.
 * Pure apart from the stand-in.
 */
import { SETTING_PREFIX, cellHash, hashedPlaces, sourceOf, type CellValue, type ColumnsRead, type LoadParams, type Workbook } from "../../src/sheets";
import type { SyncTable } from "../../src/sync";
import { findTypedValues } from "../../src/sync/typed-values";

const T = "SpendExpenses_sub1";
const PARAMS = { resource: "expenses", enterpriseId: "ent-1", subsidiaryId: "sub-1" } as LoadParams;
const LAYOUT = sourceOf(PARAMS).columns;
const HASHED = hashedPlaces(LAYOUT).map((p) => LAYOUT[p].header);
const ID = LAYOUT[0].header;
const table = { tableName: T, params: PARAMS, headers: { id: ID } } as unknown as SyncTable;

/** The fingerprints of a record loaded with "x" in every service cell. */
const loadedOf = (id: string) => HASHED.map((h) => cellHash(h === ID ? id : "x")).join("");

/** Rows by header (every hashed header "x" unless given); `loaded` the fingerprints kept per id (of "x" everywhere unless given). */
function standIn(rows: Record<string, CellValue>[], options: { fingerprints?: Map<string, string>; storedColumns?: string[]; deleted?: string[] } = {}) {
  const header = LAYOUT.map((c) => c.header).filter((h) => !(options.deleted ?? []).includes(h));
  const full = rows.map((r): Record<string, CellValue> => ({ ...Object.fromEntries(HASHED.map((h) => [h, "x"])), ...r }));
  const fingerprints = options.fingerprints ?? new Map(rows.map((r) => [String(r[ID]), loadedOf(String(r[ID]))]));
  return {
    readSetting: async (key: string) => (key === SETTING_PREFIX + T
      ? JSON.stringify({ params: PARAMS, columns: options.storedColumns ?? LAYOUT.map((c) => c.header), loadedAt: "2026-11-20T10:00:00.000Z" }) : null),
    readColumns: async (name: string, headers: readonly string[]): Promise<ColumnsRead | null> => {
      if (name === T) {
        return { sheetName: "S", header, rowCount: full.length, columns: new Map(headers.filter((h) => header.includes(h)).map((h) => [h, full.map((r) => r[h] ?? "")])) };
      }
      const ids = [...fingerprints.keys()];
      return { sheetName: "Snap", header: ["Record ID", "cells"], rowCount: ids.length, columns: new Map([["Record ID", ids], ["cells", ids.map((id) => fingerprints.get(id)!)]]) };
    },
  } as unknown as Workbook;
}

describe("values typed over the service's cells", () => {
  it("a cell that no longer matches its fingerprint is named, with its row, record, header and value", async () => {
    const workbook = standIn([{ [ID]: "a" }, { [ID]: "b", [HASHED[2]]: 12.5 }]);
    const found = await findTypedValues(workbook, table);
    expect(found.typed).toEqual([{ row: 1, id: "b", header: HASHED[2], typed: 12.5 }]);
    expect(found.where).toEqual({ header: LAYOUT.map((c) => c.header), service: HASHED });
  });

  it("not for a record on two rows (whose cells are whose cannot be told), a row without an id, or a record without fingerprints", async () => {
    const twice = standIn([{ [ID]: "a", [HASHED[2]]: 1 }, { [ID]: "a" }, { [ID]: "", [HASHED[2]]: 2 }, { [ID]: "c", [HASHED[2]]: 3 }], {
      fingerprints: new Map([["a", loadedOf("a")]]),
    });
    expect((await findTypedValues(twice, table)).typed).toEqual([]);
  });

  it("not against fingerprints of another length (another layout's), nor when the table was loaded with another layout", async () => {
    const short = standIn([{ [ID]: "a", [HASHED[2]]: 1 }], { fingerprints: new Map([["a", "abc"]]) });
    expect((await findTypedValues(short, table)).typed).toEqual([]);
    const older = standIn([{ [ID]: "a", [HASHED[2]]: 1 }], { storedColumns: LAYOUT.slice(1).map((c) => c.header) });
    const found = await findTypedValues(older, table);
    expect(found).toEqual({ typed: [], where: { header: LAYOUT.map((c) => c.header), service: HASHED } });
  });

  it("a service column the user deleted is not a value typed over", async () => {
    const deleted = HASHED[3];
    const workbook = standIn([{ [ID]: "a" }], { deleted: [deleted] });
    expect((await findTypedValues(workbook, table)).typed).toEqual([]);
  });
});
