/**
 * What the record functions spill (src/sheets/spill/spill.ts), against a scripted service: one record's GET for each
 * kind (the card's own path, an allowance asked with its segments, an expense as it is), and a scope's list read
 * page by page at the resource's maximum page size, each page answering the spill of a record it holds exactly as
 * that record's GET would, and nothing for one a GET must decide (a record its GET's schema refuses) or one it
 * lacks. Every request asserted with its query; every column and cell of the spills compared.
 */
import { SpendClient } from "../../src/api";
import { recordColumns, recordPageSize, recordPages, spillRecord, type RecordKind, type RecordPage, type Spill } from "../../src/sheets/spill/spill";
import { U, allowance, expense } from "../api/helpers/records";
import { card, fakeTransport, type Reply } from "../support/fake-transport";

const SUB = "sub-1";
/** An allowance as its GET answers it with its segments (which name the converted amount's currency). */
const withSegments = (n: number) => allowance(n, {
  converted_amount: 90.5,
  allowance_segments: [{
    id: U(300), start_date: "2026-03-01T00:00:00Z", end_date: "2026-03-03T00:00:00Z", fare_id: U(301), fare_name: "Lunch", days: 2,
    amount: { amount: 100, currency: "CLP" }, converted_amount: { amount: 90.5, currency: "USD" },
  }],
});
const recordOf = (kind: RecordKind, n: number): Record<string, unknown> =>
  kind === "card" ? { ...card(U(n)), last_four_digits: String(4000 + n), billing_day: n } : kind === "allowance" ? withSegments(n) : expense(n, { description: `Lunch ${n}` });
const PATHS: Record<RecordKind, string> = { card: "corporate-cards/", allowance: `subsidiaries/${SUB}/allowances/`, expense: `subsidiaries/${SUB}/expenses/` };

function clientOn(script: (path: string, query: URLSearchParams) => Reply) {
  const fake = fakeTransport((request) => {
    const url = new URL(request.url);
    return script(url.pathname.replace("/public/v1/enterprises/ent-1/", ""), url.searchParams);
  });
  const client = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_spill_0123456789", transport: fake.transport, retry: { retries: 0 } });
  const requests = () => fake.requests.map((r) => {
    const url = new URL(r.url);
    return `${r.method} ${url.pathname.replace("/public/v1/enterprises/ent-1/", "")}${url.search}`;
  });
  return { client, requests };
}

describe("one record (spillRecord)", () => {
  it.each([
    ["card", `GET corporate-cards/${U(7)}/`, { "Card ID": U(7), "Last four digits": "4007", "Billing day": 7 }],
    ["allowance", `GET subsidiaries/${SUB}/allowances/${U(7)}/?expand=allowance_segments`, { "Allowance ID": U(7), "Allowance #": 7, "Converted amount": 90.5, "Converted currency": "USD" }],
    ["expense", `GET subsidiaries/${SUB}/expenses/${U(7)}/`, { "Expense ID": U(7), "Expense #": 7, Description: "Lunch 7" }],
  ] as const)("%s: its own GET, then its row in the columns of its kind, without Sync status", async (kind, request, cells) => {
    const { client, requests } = clientOn(() => ({ body: recordOf(kind, 7) }));
    const spill = await spillRecord(client, { kind, id: U(7), subsidiaryId: SUB });
    expect(requests()).toEqual([request]);
    expect(spill.columns.map((c) => ({ key: c.key, header: c.header }))).toEqual(recordColumns(kind));
    expect(spill.columns.map((c) => c.header)).not.toContain("Sync status");
    expect(spill.rows).toHaveLength(1);
    const cell = (header: string) => spill.rows[0][spill.columns.findIndex((c) => c.header === header)];
    expect(Object.fromEntries(Object.keys(cells).map((header) => [header, cell(header)]))).toEqual(cells);
  });

  it("the three kinds have columns of their own: a card's, an allowance's and an expense's headers differ", () => {
    const heads = (kind: RecordKind) => recordColumns(kind).map((c) => c.header);
    expect(heads("card")[0]).toBe("Card ID");
    expect(heads("allowance")[0]).toBe("Allowance ID");
    expect(heads("expense")[0]).toBe("Expense ID");
    expect(heads("allowance")).toContain("Converted currency");
    expect(heads("expense")).toContain("Provider");
  });
});

describe("a scope's list, page by page (recordPages)", () => {
  /** Serves `total` records of `kind`; `refused` are records whose GET schema fails (a text amount). */
  function list(kind: RecordKind, total: number, refused: number[] = []) {
    return clientOn((path, query) => {
      if (path !== PATHS[kind]) throw new Error(`unexpected ${path}`);
      const page = Number(query.get("page") ?? 1);
      const size = Number(query.get("page_size"));
      const ns = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * size, page * size);
      const results: unknown[] = ns.map((n) => {
        const record = recordOf(kind, n);
        return refused.includes(n) ? { ...record, [kind === "card" ? "billing_day" : "description"]: { not: "text" } } : record;
      });
      const next = page * size < total ? `https://spend.example/public/v1/enterprises/ent-1/${PATHS[kind]}?${new URLSearchParams({ ...Object.fromEntries(query), page: String(page + 1) })}` : null;
      return { body: { count: total, next, previous: null, results } };
    });
  }
  const collect = async (pages: AsyncGenerator<RecordPage>) => {
    const out: RecordPage[] = [];
    for await (const page of pages) out.push(page);
    return out;
  };

  it.each([
    ["card", 150, "page_size=100", 100],
    ["allowance", 1500, "expand=allowance_segments&page=1&page_size=1000", 1000],
    ["expense", 1500, "page=1&page_size=1000", 1000],
  ] as const)("%ss: read at the resource's maximum page size (%s records)", async (kind, total, firstQuery, max) => {
    const { client, requests } = list(kind, total);
    const pages = await collect(recordPages(client, { kind, subsidiaryId: SUB }));
    expect(recordPageSize(kind)).toBe(max);
    expect(requests()[0]).toBe(`GET ${PATHS[kind]}?${kind === "card" ? `page=1&${firstQuery}` : firstQuery}`);
    expect(requests()).toHaveLength(2);
    expect(pages.map((p) => [p.page, p.count, p.pageSize, p.size])).toEqual([[1, total, max, max], [2, total, max, total - max]]);
  });

  it.each(["card", "allowance", "expense"] as const)("%s: a page answers the spill its GET would give, for every record it holds, and nothing for one it lacks", async (kind) => {
    const { client } = list(kind, 3);
    const [page] = await collect(recordPages(client, { kind, subsidiaryId: SUB }));
    for (const n of [1, 2, 3]) {
      const { client: one } = clientOn(() => ({ body: recordOf(kind, n) }));
      const got: Spill = await spillRecord(one, { kind, id: U(n), subsidiaryId: SUB });
      expect(page.spill(U(n))).toEqual(got);
    }
    expect(page.spill(U(4))).toBeUndefined();
  });

  it("a record its GET's schema would refuse is left to its GET (no spill), and still counts in the page's size", async () => {
    const { client } = list("expense", 3, [2]);
    const [page] = await collect(recordPages(client, { kind: "expense", subsidiaryId: SUB }));
    expect([page.spill(U(1)) === undefined, page.spill(U(2)) === undefined, page.spill(U(3)) === undefined]).toEqual([false, true, false]);
    expect(page.size).toBe(3);
  });
});
