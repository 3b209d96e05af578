/**
 * A page is bounded by what was asked (issue 25): more records than the page size asked for, or more values
 * than that many records hold, is refused before a record is parsed or checked; a record is checked on its
 * own, so a bad one costs a few issues, never one per item of a hostile array; a list that keeps malformed
 * records hands each over with its place and what is wrong, and a page that is itself malformed still fails.
 */
import fc from "fast-check";
import { z } from "zod";
import {
  AnswerTooLargeError, MalformedRecord, PaginationError, SchemaError, SpendClient, getExpense, listCards, listExpenses,
} from "../../src/api";
import { scanJson } from "../../src/api/json-scan";
import { decodePage } from "../../src/api/page-decode";
import { card, fakeTransport, type Reply } from "../support/fake-transport";
import { answer, hostileServer } from "./helpers/hostile-server";

const BASE = "https://spend.example";

function client(reply: (url: string, index: number) => Reply, extra: Partial<ConstructorParameters<typeof SpendClient>[0]> = {}) {
  const fake = fakeTransport((r, i) => (i >= 20 ? new Error("looping") : reply(r.url, i)));
  return { c: new SpendClient({ baseUrl: BASE, enterpriseId: "ent-1", apiKey: "sk_test_bounded", transport: fake.transport, retry: { retries: 0 }, ...extra }), fake };
}

/** An expense as the sandbox sends it (every required field). */
function expense(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id, description: "Taxi", expense_type: "taxi", currency: "CLP", amount: 1000, usd_amount: 1.1, state: "approved", date: "2026-03-01",
    expense_number: 1001, content_type: "image/png", cost_center_id: "cc", category_id: "cat", user_id: "u", fund_id: null, is_active: true,
    created_at: "2026-03-01T10:00:00Z", url: "https://r.example/1", document_id: "D1", expense_document_type: "receipt", provider: "Taxi Co",
    payment_method: "card", net_amount: 840, tax_amount: 160, tax_rate: 19, subsidiary_currency: "CLP", subsidiary_expense_amount: 1000,
    accounted_id: null, paid_id: null, paid_at: null, ...extra,
  };
}

describe("more records than the page size asked for", () => {
  it.each([
    ["with a count", 1001],
    ["without a count", null],
  ])("a page %s is refused before any record is checked", (_what, count) => {
    const item = z.object({ id: z.string() });
    const spy = jest.spyOn(item, "safeParse");
    const text = JSON.stringify({ count, next: null, previous: null, results: Array.from({ length: 1001 }, (_, i) => ({ id: `r${i}` })) });
    const refused = (() => {
      try {
        decodePage(text, { resource: "expenses", page: 4, pageSize: 1000, item, keepMalformed: true });
      } catch (e) {
        return e as PaginationError;
      }
      throw new Error("accepted");
    })();
    expect(refused).toBeInstanceOf(PaginationError);
    expect(refused.page).toBe(4);
    expect(refused.message).toBe("Page 4 of expenses holds more than 1,000 records, the page size asked for: the service ignores page_size. It was refused without being read. Loading stopped.");
    expect(spy).not.toHaveBeenCalled();
  });

  it("a page holding exactly the page size is read", () => {
    const item = z.object({ id: z.string() });
    const text = JSON.stringify({ count: null, next: null, previous: null, results: Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}` })) });
    expect(decodePage(text, { resource: "expenses", page: 1, pageSize: 1000, item, keepMalformed: false }).results).toHaveLength(1000);
  });

  it("a results key spelled with escapes, or repeated, is counted all the same", () => {
    const many = Array.from({ length: 11 }, (_, i) => card(`r${i}`));
    for (const text of [
      `{"count":null,"next":null,"r\\u0065sults":${JSON.stringify(many)}}`,
      `{"results":[],"count":null,"results":${JSON.stringify(many)}}`,
    ]) {
      expect(() => decodePage(text, { resource: "cards", page: 1, pageSize: 10, item: z.object({ id: z.string() }), keepMalformed: false })).toThrow(PaginationError);
    }
  });

  it("a page after a next link is held to the page size first asked for, whatever page_size the link says", async () => {
    const { c, fake } = client((url) => new URL(url).searchParams.get("page") === "1"
      ? { body: { count: null, next: `${BASE}/public/v1/enterprises/ent-1/corporate-cards/?page=2&page_size=100`, previous: null, results: [card("a"), card("b")] } }
      : { body: { count: null, next: null, previous: null, results: Array.from({ length: 3 }, (_, i) => card(`c${i}`)) } });
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toMatch(/^Page 2 of corporate cards holds more than 2 records/);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("more values than the records asked for hold", () => {
  it("a page of the right length whose records hold 10^5 values each is refused unread", async () => {
    const huge = `[${new Array(100_000).fill("0").join(",")}]`;
    const { c } = client(() => ({ text: `{"count":2,"next":null,"previous":null,"results":[{"id":"a","x":${huge}},{"id":"b","x":${huge}}]}` }));
    const error = await listCards(c, {}, { pageSize: 2 }).all().catch((e) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe("Page 1 of corporate cards holds more than 4,160 values, more than 2 records need: it was refused without being read. Loading stopped.");
  });

  it("a record answer holding more values than a record needs is refused unread; a large honest one is read", async () => {
    const many = Array.from({ length: 3000 }, () => ({}));
    const { c } = client(() => ({ body: { ...expense("e1"), approved_by: many } }));
    const error = await getExpense(c, "s1", "e1").catch((e) => e);
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(error.message).toBe("The service's answer for expense holds more than 2,112 values, more than a record needs: it was refused without being read.");
    const { c: honest } = client(() => ({ body: { ...expense("e1"), approved_by: Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, first_name: "A", last_name: "B" })) } }));
    expect((await getExpense(honest, "s1", "e1")).approved_by).toHaveLength(200);
  });
});

describe("validation is bounded", () => {
  it("a record with 2,000 bad items in an array costs one issue, naming the first bad item", async () => {
    const { c } = client(() => ({ body: { count: 1, next: null, previous: null, results: [expense("e1", { approved_by: new Array(2000).fill(7) })] } }));
    const error = await listExpenses(c, "s1").all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe("results[0].approved_by[0]");
    expect(error.message).toBe("The service's answer for expenses (page 1) does not match the API: results[0].approved_by[0]: Invalid input: expected object, received number (got 7).");
  });

  it("a kept malformed record keeps at most three issues, the first first", () => {
    const bad = expense("e1", { amount: "x", currency: 5, date: "2026-02-30", created_at: "soon", is_active: "yes" });
    const page = decodePage(JSON.stringify({ count: 1, next: null, previous: null, results: [bad] }), {
      resource: "expenses", page: 1, pageSize: 10, item: z.object({ id: z.string(), currency: z.string(), amount: z.number(), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), created_at: z.string().datetime(), is_active: z.boolean() }), keepMalformed: true,
    });
    expect(page.malformed).toHaveLength(1);
    expect(page.malformed[0].issues.map((i) => i.path)).toEqual(["currency", "amount", "created_at"]);
  });
});

describe("a list that keeps malformed records", () => {
  it("hands over the other records as they are and the bad one in its place, with what is wrong", async () => {
    const { c } = client(() => ({
      body: { count: 5, next: null, previous: null, results: [expense("e1"), expense("e2"), expense("e3", { created_at: "2026-13-45T00:00:00Z" }), expense("e4"), expense("e5")] },
    }));
    const pages = [];
    for await (const page of listExpenses(c, "s1", {}, { keepMalformed: true }).pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(pages[0].results.map((e) => e.id)).toEqual(["e1", "e2", "e4", "e5"]);
    expect(pages[0].malformed).toHaveLength(1);
    const [bad] = pages[0].malformed;
    expect(bad).toBeInstanceOf(MalformedRecord);
    expect({ id: bad.id, index: bad.index, raw: bad.raw.created_at }).toEqual({ id: "e3", index: 2, raw: "2026-13-45T00:00:00Z" });
    expect(bad.issues).toEqual([{ path: "created_at", message: "expected an ISO 8601 timestamp with a zone, like 2026-03-31T12:00:00Z", value: '"2026-13-45T00:00:00Z"' }]);
  });

  it("counts the kept record against the count, the progress and the guard against repeats", async () => {
    const progress: [number, number | null][] = [];
    const { c } = client((url) => {
      const page = Number(new URL(url).searchParams.get("page"));
      return { body: { count: 4, next: null, previous: null, results: page === 1 ? [expense("e1"), expense("e2", { amount: "x" })] : [expense("e3"), expense("e2", { amount: "x" })] } };
    });
    const error = await (async () => {
      for await (const _page of listExpenses(c, "s1", {}, { keepMalformed: true, pageSize: 2, onProgress: (n, t) => progress.push([n, t]) }).pages()) { /* read */ }
    })().catch((e) => e);
    expect(progress).toEqual([[2, 4]]);
    expect(error?.name).toBe("DataMovedError");
  });

  it.each([
    ["no id", { ...expense("x"), id: undefined }, "results[1].id"],
    ["an empty id", expense(""), "results[1].id"],
    ["an id that is a number", { ...expense("x"), id: 7 }, "results[1].id"],
    ["a record that is not an object", 42, "results[1]"],
  ])("still refuses the page for a record with %s: a row could not be found again", async (_what, record, path) => {
    const { c } = client(() => ({ body: { count: 2, next: null, previous: null, results: [expense("e1"), record] } }));
    const error = await listExpenses(c, "s1", {}, { keepMalformed: true }).all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe(path);
  });

  it.each([
    ["not JSON", "<html>busy</html>", /was an HTML page, not JSON/],
    ["results that is not an array", JSON.stringify({ count: 1, next: null, previous: null, results: { id: "e1" } }), /results: Invalid input: expected array/],
    ["a count that is text", JSON.stringify({ count: "1", next: null, previous: null, results: [expense("e1")] }), /count: Invalid input: expected number/],
  ])("still fails the load with a clear error for a page that is %s", async (_what, text, message) => {
    const { c } = client(() => ({ text }));
    const error = await listExpenses(c, "s1", {}, { keepMalformed: true }).all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toMatch(message);
  });

  it("without keepMalformed, the same record fails the page naming the field (the default)", async () => {
    const { c } = client(() => ({ body: { count: 2, next: null, previous: null, results: [expense("e1"), expense("e2", { created_at: "never" })] } }));
    const error = await listExpenses(c, "s1").all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe("results[1].created_at");
  });
});

describe("the bytes of an answer", () => {
  it("an answer longer than the client reads is refused once that much has arrived; the rest is not read", async () => {
    let written = 0;
    let closedEarly = false;
    const server = await hostileServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.write('{"count":null,"next":null,"previous":null,"results":[');
      const more = () => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end("]}");
      };
      res.on("close", () => (closedEarly = !res.writableFinished));
      more();
    });
    try {
      const c = new SpendClient({ baseUrl: server.url, enterpriseId: "ent-1", apiKey: "sk_test_bytes", retry: { retries: 0 }, maxResponseBytes: 1024 * 1024 });
      const error = await listCards(c).all().catch((e) => e);
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      expect(error.message).toBe("The service's answer to the request for page 1 of the corporate cards is larger than 1 MB, more than any answer of the API needs: it was not read.");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closedEarly).toBe(true);
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });

  it("a Content-Length over the limit is refused before the body is read", async () => {
    const server = await hostileServer((_req, res) => answer(res, 200, { count: 0, next: null, previous: null, results: [], pad: "x".repeat(2 * 1024 * 1024) }));
    try {
      const c = new SpendClient({ baseUrl: server.url, enterpriseId: "ent-1", apiKey: "sk_test_bytes", retry: { retries: 0 }, maxResponseBytes: 1024 * 1024 });
      await expect(listCards(c).all()).rejects.toBeInstanceOf(AnswerTooLargeError);
    } finally {
      await server.close();
    }
  });

  it("a transport that hands over the whole text is held to the same limit", async () => {
    const { c } = client(() => ({ text: `{"count":0,"next":null,"previous":null,"results":[],"pad":"${"x".repeat(2000)}"}` }), { maxResponseBytes: 1000 });
    await expect(listCards(c).all()).rejects.toBeInstanceOf(AnswerTooLargeError);
  });
});

describe("the scan agrees with JSON.parse", () => {
  const envelope = fc.record({
    count: fc.option(fc.nat()),
    next: fc.option(fc.string()),
    results: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 30 }),
    extra: fc.jsonValue({ maxDepth: 3 }),
  });

  it("counts the results of any envelope exactly, up to the limit, and never fewer values than it holds", () => {
    // And it stops at the values' limit: a text with more values is always seen to have more.
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 30 }), (value, max) => {
      const held = countValues(value);
      const scanned = scanJson(JSON.stringify(value), null, 1, max).values;
      expect(scanned).toBeLessThanOrEqual(max + 1);
      expect(scanned).toBeGreaterThanOrEqual(Math.min(held, max + 1));
    }), { numRuns: 300 });
    fc.assert(fc.property(envelope, fc.integer({ min: 1, max: 40 }), (body, limit) => {
      const text = JSON.stringify(body, null, body.results.length % 2 ? 1 : undefined);
      const shape = scanJson(text, "results", limit, Number.MAX_SAFE_INTEGER);
      expect(shape.elements).toBe(Math.min(body.results.length, limit + 1));
      // (A scan stopped at the limit has not counted the rest.)
      if (body.results.length <= limit) expect(shape.values).toBeGreaterThanOrEqual(countValues(JSON.parse(text)));
    }), { numRuns: 500 });
  });
});

function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, v) => n + countValues(v), 0);
  if (value !== null && typeof value === "object") return 1 + Object.values(value).reduce((n: number, v) => n + countValues(v), 0);
  return 1;
}
