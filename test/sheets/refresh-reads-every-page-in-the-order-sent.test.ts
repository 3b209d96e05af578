/**
 * Refresh's first step reads every page of the query into rows, fingerprints and counts, in the order the service
 * sent the records, malformed ones in their places (src/sheets/refresh/collect.ts); a refresh cancelled while reading
 * stops with "Cancelled.". Pages come from a generator: no Excel, no sandbox.
 */
import { CancelledError, MalformedRecord, type Page } from "../../src/api";
import type { Load } from "../../src/sheets/load/context";
import { LoadParams } from "../../src/sheets/load/params";
import { Query } from "../../src/sheets/resources";
import { collect } from "../../src/sheets/refresh/collect";
import { rowHashes } from "../../src/sheets/edits/row-hashes";

describe("Refresh reads every page", () => {
  const params = LoadParams.parse({ resource: "cards", enterpriseId: "e" });
  const card = (id: string, digits: string) => ({ id, last_four_digits: digits, user_id: "u", bank_id: "b", national_balance_currency: "CLP", international_balance_currency: "USD", billing_day: 5, billing_mode: "m" });
  const page = (n: number, results: object[], malformed: MalformedRecord[] = []): Page<{ id: string }> => ({ page: n, count: null, results: results as { id: string }[], malformed });
  async function* pages(...list: Page<{ id: string }>[]) {
    yield* list;
  }
  const loadOf = (signal?: AbortSignal) => ({ params, query: Query.parse(params), hashed: [0, 1], options: { signal } }) as unknown as Load;

  it("each record's row, in the order sent across pages, malformed ones in their places; fingerprints of the hashed cells; counts", async () => {
    const bad = new MalformedRecord("c2", 1, { id: "c2", last_four_digits: 42 }, [{ path: "last_four_digits", value: "42", message: "expected string" }]);
    const out = await collect(loadOf(), pages(page(1, [card("c1", "1111"), card("c3", "3333")], [bad]), page(2, [card("c4", "4444")])));
    expect([...out.incoming.keys()]).toEqual(["c1", "c2", "c3", "c4"]);
    expect(out.incoming.get("c1")).toEqual(["c1", "1111", "", "u", "b", "CLP", "USD", 5, "m"]);
    expect(out.incoming.get("c2")!.slice(0, 3)).toEqual(["c2", "42", "Read-only: the service sent last_four_digits 42 (expected string), which does not match the API. Sync states will not send this row; ask your Spend Sync contact."]);
    expect([...out.hashes]).toEqual(["c1", "c2", "c3", "c4"].map((id) => [id, rowHashes(out.incoming.get(id)!, [0, 1])]));
    expect([out.count, out.malformed, out.fresh.size, out.readOnly.size]).toEqual([4, 1, 0, 0]);
  });

  it("no pages: nothing, counted as nothing", async () => {
    const out = await collect(loadOf(), pages());
    expect([out.incoming.size, out.hashes.size, out.count, out.malformed]).toEqual([0, 0, 0, 0]);
  });

  it("a refresh cancelled while reading stops with Cancelled.", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(collect(loadOf(controller.signal), pages(page(1, [card("c1", "1")])))).rejects.toEqual(new CancelledError("Cancelled."));
    await expect(collect(loadOf(controller.signal), pages())).rejects.toBeInstanceOf(CancelledError);
  });
});
