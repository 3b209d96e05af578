/**
 * The messages a user reads when a service or a proxy answers oddly say what happened, in plain grammar:
 * an HTML page after kilobytes of white space is still named an HTML page and quoted; a page of one record that
 * holds too many values says "a record", not "1 records"; a page holding one record twice says so rather than
 * blaming earlier pages; an answer limit under a megabyte is said in KB, never "0 MB".
 */
import { z } from "zod";
import { DataMovedError, PaginationError, SchemaError, SpendClient, getCard, AnswerTooLargeError } from "../../src/api";
import { decodePage } from "../../src/api/page-decode";
import { PageGuard } from "../../src/api/page-guard";
import { MAX_VALUES_PER_RECORD, parseJson } from "../../src/api/schema-check";
import { fakeTransport } from "../support/fake-transport";

const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("nothing was thrown");
};

describe("an answer that is not JSON", () => {
  it("an HTML page after 8 KB of blank lines is named an HTML page and quoted from its first character", () => {
    const error = thrown(() => parseJson(`${" \r\n".repeat(3000)}<html><body>502 Bad Gateway</body></html>`, "expenses"));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(
      'The service\'s answer for expenses was an HTML page, not JSON: "<html><body>502 Bad Gateway</body></html>". Is the base URL the service\'s?');
  });

  it("text after as much white space is quoted too, not shown as an empty quote", () => {
    const error = thrown(() => parseJson(`${"\t".repeat(5000)}Service Unavailable`, "cards"));
    expect(error.message).toBe('The service\'s answer for cards was not valid JSON (cut short?): "Service Unavailable". Is the base URL the service\'s?');
  });
});

describe("a page holding more values than its records need", () => {
  const page = (values: number) => JSON.stringify({ count: 1, next: null, previous: null, results: [{ id: "e1", extra: new Array(values).fill(0) }] });
  const decode = (pageSize: number, values: number) =>
    thrown(() => decodePage(page(values), { resource: "expenses", page: 1, pageSize, item: z.object({ id: z.string() }).passthrough(), keepMalformed: false }));

  it("of one record: \"more than a record needs\"", () => {
    const error = decode(1, MAX_VALUES_PER_RECORD + 100);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe(
      `Page 1 of expenses holds more than ${(MAX_VALUES_PER_RECORD + 64).toLocaleString("en-US")} values, more than a record needs: it was refused without being read. Loading stopped.`);
  });

  it("of two records: \"more than 2 records need\"", () => {
    const error = decode(2, 2 * MAX_VALUES_PER_RECORD + 100);
    expect(error.message).toBe(
      `Page 1 of expenses holds more than ${(2 * MAX_VALUES_PER_RECORD + 64).toLocaleString("en-US")} values, more than 2 records need: it was refused without being read. Loading stopped.`);
  });
});

describe("a page that holds a record seen before", () => {
  it("the same record twice on one page (the first) says so", () => {
    const error = thrown(() => new PageGuard("expenses", 1000, 10).accept(1, ["e1", "e2", "e1"], 3));
    expect(error).toBeInstanceOf(DataMovedError);
    expect(error.message).toBe("The expenses changed on the server while loading (page 1 holds the same record twice). Load again.");
  });

  it("a record of an earlier page says that", () => {
    const guard = new PageGuard("expenses", 1000, 10);
    guard.accept(1, ["e1", "e2"], 4);
    const error = thrown(() => guard.accept(2, ["e2", "e3"], 4));
    expect(error.message).toBe("The expenses changed on the server while loading (page 2 repeats records of earlier pages). Load again.");
  });
});

describe("an answer larger than the client's limit", () => {
  const tooLarge = async (maxResponseBytes: number) => {
    const fake = fakeTransport(() => ({ text: "x".repeat(maxResponseBytes + 1) }));
    const client = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_size", transport: fake.transport, maxResponseBytes });
    return (await getCard(client, "c1").catch((error: unknown) => error)) as Error;
  };

  it.each([
    [100_000, "98 KB"],
    [300, "1 KB"],
    [1024 * 1024, "1 MB"],
    [5 * 1024 * 1024, "5 MB"],
  ])("a limit of %d bytes is said as %s", async (bytes, words) => {
    const error = await tooLarge(bytes);
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(error.message).toBe(`The service's answer to the request for corporate card c1 is larger than ${words}, more than any answer of the API needs: it was not read.`);
  });
});
