// Rule: a list asked for a page size that is not a whole number from 1 to the resource's maximum is refused at once,
// in words naming what was asked, and nothing is sent.
import { SpendClient, listCards } from "../../src/api";
import { fakeTransport, pageOf } from "../support/fake-transport";

it.each([0, -1, 2.5, Number.NaN])("page size %p", (pageSize) => {
  const fake = fakeTransport((r) => ({ body: pageOf(r.url, 3) }));
  const c = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_page_size", transport: fake.transport });
  expect(() => listCards(c, {}, { pageSize })).toThrow(new RangeError(`pageSize for corporate cards must be a whole number from 1 to 100; got ${pageSize}.`));
  expect(fake.requests).toHaveLength(0);
});
