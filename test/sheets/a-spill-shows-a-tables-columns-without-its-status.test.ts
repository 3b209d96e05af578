/**
 * A spilled list or record (the custom functions) has the table's headers, order and value types, without the
 * Sync status column, as a header row then its rows; no cell of it echoes the key.
 */
import { SpendClient } from "../../src/api";
import { recordColumns, recordPageSize, spillList, spillRecord, type CellValue, type Spill } from "../../src/sheets";
import { cardColumns } from "../../src/sheets/resources/cards";
import { fakeTransport, pageOf, card } from "../support/fake-transport";

/** The plain grid of a spill: a header row, then the rows. */
const gridOf = (spill: Spill): CellValue[][] => [spill.columns.map((c) => c.header), ...spill.rows];

const KEY = "key-abc-123-secret";

function client(edit: (c: Record<string, unknown>) => void = () => undefined) {
  const wire = fakeTransport((request) => {
    if (/corporate-cards\/r\d+\//.test(new URL(request.url).pathname)) {
      const one = card("r9");
      edit(one);
      return { body: one };
    }
    const page = pageOf(request.url, 2) as { results: Record<string, unknown>[] };
    page.results.forEach(edit);
    return { body: page };
  });
  return new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: KEY, transport: wire.transport });
}

const CARD_HEADERS = cardColumns(new Set()).filter((c) => c.key !== "status").map((c) => c.header);

describe("a spill", () => {
  it("of a list: the table's columns but the status, a header row then a row per record, numbers as numbers", async () => {
    const spill = await spillList(client(), { resource: "cards", enterpriseId: "ent-1" });
    expect(spill.columns.map((c) => c.header)).toEqual(CARD_HEADERS);
    expect(spill.columns.find((c) => c.key === "billing_day")).toEqual({ key: "billing_day", header: "Billing day", kind: "integer", currencyKey: undefined, currency: undefined });
    const grid = gridOf(spill);
    expect(grid[0]).toEqual(CARD_HEADERS);
    expect(grid.slice(1).map((row) => [row[0], row[CARD_HEADERS.indexOf("Billing day")], row[CARD_HEADERS.indexOf("Billing mode")]])).toEqual([["r1", 5, "bank_movements"], ["r2", 5, "bank_movements"]]);
  });

  it("never shows the key, even where the service echoes it", async () => {
    const spill = await spillList(client((c) => (c.billing_mode = `mode ${KEY}`)), { resource: "cards", enterpriseId: "ent-1" });
    const text = JSON.stringify(gridOf(spill));
    expect(text).not.toContain(KEY);
    const one = await spillRecord(client((c) => (c.billing_mode = `mode ${KEY}`)), { kind: "card", id: "r9" });
    expect(JSON.stringify(one.rows)).not.toContain(KEY);
    expect(one.rows[0][0]).toBe("r9");
  });

  it("of a record: its columns but the status; page sizes are each resource's maximum", () => {
    expect(recordColumns("card").map((c) => c.header)).toEqual(CARD_HEADERS);
    expect(recordColumns("card")[0]).toEqual({ key: "id", header: "Card ID" });
    expect(recordColumns("expense").some((c) => c.key === "status")).toBe(false);
    expect(recordColumns("allowance").some((c) => c.key === "status")).toBe(false);
    expect(recordColumns("expense").length).toBeGreaterThan(0);
    expect(recordColumns("allowance").map((c) => c.header)).not.toEqual(recordColumns("expense").map((c) => c.header));
    expect([recordPageSize("card"), recordPageSize("allowance"), recordPageSize("expense")]).toEqual([100, 1000, 1000]);
  });
});
