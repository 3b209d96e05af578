/** A corporate-card list whose first page links on with a given `next`: how a link the client follows is tested. */
import { SpendClient, listCards } from "../../../src/api";
import { fakeTransport, pageOf } from "../../support/fake-transport";

export const BASE = "https://spend.example/api";
export const LIST = "https://spend.example/api/public/v1/enterprises/ent-1/corporate-cards/";

/** Page 1 links on with `next`; every other page is the last. The requests are recorded; the tenth is refused. */
export function listWith(next: string) {
  const fake = fakeTransport((r, i) => {
    if (i >= 10) return new Error("looping");
    const page = Number(new URL(r.url).searchParams.get("page") ?? 1);
    return { body: { count: null, next: page === 1 ? next : null, previous: null, results: pageOf(`${LIST}?page=${page}&page_size=2`, 4).results } };
  });
  const c = new SpendClient({ baseUrl: BASE, enterpriseId: "ent-1", apiKey: "sk_test_links", transport: fake.transport, retry: { retries: 0 } });
  return { load: () => listCards(c, {}, { pageSize: 2 }).all(), fake };
}
