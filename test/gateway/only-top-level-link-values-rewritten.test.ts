/**
 * Rule: of a JSON list answer, only a string that is the value of the top-level key `next` or `previous` is
 * rewritten to the gateway; a key that merely starts or ends like one, a link nested in an object or array, a
 * string after an escaped quote, a link too long to be one, and a body that is not well-formed where the link
 * would be, are relayed byte for byte.
 */
import { createGateway } from "../../src/gateway";
import { stubUpstream } from "./doubles";

const TARGET = "https://api.example.com/spend";
const LINK = `${TARGET}/public/v1/x/?page=2`;
const REWRITTEN = "http://gateway.test/public/v1/x/?page=2";
const q = JSON.stringify;

async function through(body: string, chunks = [body]): Promise<string> {
  const upstream = stubUpstream(() => new Response(new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  }), { headers: { "content-type": "application/json" } }));
  const gateway = createGateway({ target: TARGET, allowOrigins: ["https://addin.example.com"], log: () => undefined, fetch: upstream.fetch });
  return (await gateway.fetch(new Request("http://gateway.test/public/v1/x/?page=1"))).text();
}

describe("rewritten", () => {
  it.each([
    ["after an empty key", `{"":0,"next":${q(LINK)}}`],
    ["after a key with an escaped quote", `{"a\\"b":"x","next":${q(LINK)}}`],
    ["after a value ending in an escaped backslash", `{"note":"C:\\\\","next":${q(LINK)}}`],
    ["after numbers, booleans and null", `{"count":30,"has_more":true,"cursor":null,"next":${q(LINK)}}`],
    ["after a nested object and array", `{"meta":{"next":${q(LINK)},"k":[1,{"a":"b"}]},"results":[[],{}],"next":${q(LINK)}}`],
    ["with spaces and newlines around the colon", `{\n  "previous" :\n  ${q(LINK)}\n}`],
    // A hostile key: only its first bytes are held to tell it from next and previous, never the whole megabyte.
    ["after a key of a million bytes", `{"${"k".repeat(1_000_000)}":"v","next":${q(LINK)}}`],
  ])("the top-level link %s", async (_what, body) => {
    // The last occurrence of the link is the top-level one in each body.
    const at = body.lastIndexOf(q(LINK));
    expect(await through(body)).toBe(`${body.slice(0, at)}${q(REWRITTEN)}${body.slice(at + q(LINK).length)}`);
  });
});

describe("relayed as sent", () => {
  it.each([
    ["a key longer than previous that starts like it", `{"previousX":${q(LINK)},"nextnextnext":${q(LINK)}}`],
    ["a key that ends like next", `{"xnext":${q(LINK)},"_previous":${q(LINK)}}`],
    ["a link object (HAL style)", `{"next":{"href":${q(LINK)}},"previous":{"href":${q(LINK)}}}`],
    ["a list of links", `{"next":[${q(LINK)}],"previous":["a",${q(LINK)}]}`],
    ["a link in a nested object", `{"results":[{"next":${q(LINK)}}],"meta":{"previous":${q(LINK)}}}`],
    ["a top-level array", `[${q(LINK)},{"next":${q(LINK)}},"next",${q(LINK)}]`],
    ["a top-level array of objects", `[1,{"next":${q(LINK)}}]`],
    ["a link as a key", `{${q(LINK)}:"next"}`],
    ["a string that holds an escaped next", `{"note":"\\"next\\": ${LINK.replace(/\//g, "\\/")}"}`],
    // Not well-formed where the link would be.
    ["a link with no colon before it", `{"next" ${q(LINK)}}`],
    ["a link after another value of next", `{"next":"x" ${q(LINK)}}`],
    ["a link after a number", `{"next":1 ${q(LINK)}}`],
    ["a link after a key with no colon", `{"a":"x","next" ${q(LINK)}}`],
    ["a link after an object value", `{"next":{} ${q(LINK)}}`],
    ["a link after an array value", `{"next":[] ${q(LINK)}}`],
    ["a link after an object value with a key of its own", `{"next":{"a":1} ${q(LINK)}}`],
    ["a link after an array value with items", `{"a":[1,2] "next":${q(LINK)}}`],
    ["a link after a colon in a top-level array", `["next":${q(LINK)}]`],
    ["a link after a colon following a nested next", `[1,{"next":1}:${q(LINK)}]`],
    ["a link after the object closed", `{"next":} ${q(LINK)}`],
    ["a link in an array after an object whose next had no value", `{"next":}[${q(LINK)}]`],
    ["a link after a colon in an array after such an object", `{"next":}["a":${q(LINK)}]`],
    ["a link in an object after such an object, with no key of its own", `{"next":}{${q(LINK)}}`],
    ["a link with a bad escape", `{"next":"${LINK}\\q"}`],
    ["a link with a raw tab", `{"next":"${LINK}\tx"}`],
  ])("%s", async (_what, body) => {
    expect(await through(body)).toBe(body);
  });
});

describe("a link too long to be one (over 16 KiB)", () => {
  const PREFIX = `${TARGET}/public/v1/x/?q=`;
  const long = (bytes: number) => `${PREFIX}${"a".repeat(bytes - PREFIX.length)}`;
  /** Compared whole, but reported short: a failure need not print 16 KiB. */
  const same = (got: string, want: string) => expect({ length: got.length, equal: got === want }).toEqual({ length: want.length, equal: true });

  it("is rewritten at 16 KiB with its opening quote", async () => {
    const body = `{"next":${q(long(16 * 1024 - 1))}}`;
    same(await through(body), `{"next":${q(`http://gateway.test/public/v1/x/?q=${"a".repeat(16 * 1024 - 1 - PREFIX.length)}`)}}`);
  });

  it.each([1, 2, 3])("is relayed as sent one byte over, in %i chunks, and the links after it still rewritten", async (parts) => {
    const body = `{"next":${q(long(16 * 1024))},"previous":${q(LINK)}}`;
    const size = Math.ceil(body.length / parts);
    const chunks = Array.from({ length: parts }, (_, i) => body.slice(i * size, (i + 1) * size));
    same(await through(body, chunks), body.replace(q(LINK), q(REWRITTEN)));
  });
});
