// Rule: an answer's body is read up to the client's byte limit and no further: an answer of exactly the limit is read
// (with or without a Content-Length), one that declares more is refused from its header without waiting for its body,
// a body-less answer (204) is an empty answer, and text split anywhere between chunks arrives as it was sent.
import type { ServerResponse } from "node:http";
import { AnswerTooLargeError, SchemaError, SpendClient, getCard } from "../../src/api";
import { card } from "../support/fake-transport";
import { hostileServer, type HostileServer } from "./helpers/hostile-server";

const LIMIT = 1024 * 1024;
let server: HostileServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function cardFrom(handle: (res: ServerResponse) => void) {
  server = await hostileServer((_req, res) => handle(res));
  const c = new SpendClient({ baseUrl: server.url, enterpriseId: "ent-1", apiKey: "sk_test_body_limit", retry: { retries: 0 }, maxResponseBytes: LIMIT, timeoutMs: 10_000 });
  return getCard(c, "c1").catch((e: unknown) => e as Error);
}

/** A card answer of exactly `bytes` bytes of UTF-8, its user_id padded with "é" (2 bytes) and one "x" if need be. */
function cardOf(bytes: number): string {
  const bare = JSON.stringify({ ...card("c1"), status: 200, user_id: "" });
  const room = bytes - Buffer.byteLength(bare);
  const text = JSON.stringify({ ...card("c1"), status: 200, user_id: "é".repeat(Math.floor(room / 2)) + "x".repeat(room % 2) });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

it("exactly the limit, with its Content-Length: read", async () => {
  const text = cardOf(LIMIT);
  const got = await cardFrom((res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) });
    res.end(text);
  });
  expect(got).toMatchObject({ ...card("c1"), user_id: JSON.parse(text).user_id });
});

it("exactly the limit, in chunks that split its characters: read as sent", async () => {
  const bytes = Buffer.from(cardOf(LIMIT));
  const at = bytes.indexOf(Buffer.from("é")) + 1; // inside the first "é"
  const got = await cardFrom((res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.write(bytes.subarray(0, at));
    res.write(bytes.subarray(at, at + 1001));
    res.end(bytes.subarray(at + 1001));
  });
  expect(got).toMatchObject({ ...card("c1"), user_id: JSON.parse(bytes.toString()).user_id });
});

it("a Content-Length over the limit: refused at once, though the body never comes", async () => {
  const got = await cardFrom((res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(LIMIT + 1) });
    res.write("{"); // and nothing more: the connection stays open
  });
  expect(got).toBeInstanceOf(AnswerTooLargeError);
  expect((got as Error).message).toBe(
    "The service's answer to the request for corporate card c1 is larger than 1 MB, more than any answer of the API needs: it was not read.",
  );
});

it("a 204 without a body is an empty answer", async () => {
  const got = await cardFrom((res) => {
    res.writeHead(204);
    res.end();
  });
  expect(got).toBeInstanceOf(SchemaError);
  expect((got as Error).message).toBe(`The service's answer for corporate card was empty: "". Is the base URL the service's?`);
});
