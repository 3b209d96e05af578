/**
 * The sandbox on a real socket against clients that stall (issue 25: 60 connections sending a byte every few
 * seconds were all still open after 20 s). With limits shortened for the test, a slow request head, a slow
 * body and a body that stops are each answered 408 and closed at their own limit; connections over the cap
 * are answered 503 as they open; each is logged in one line that holds neither the key nor the query. No
 * assertion is about elapsed time.
 */
import type { ConnectionLimits } from "../../src/sandbox/limits";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server";
import { ANCHOR } from "../support/sandbox";
import { idleConnection, slowClient } from "../support/slow-peer";
import { rawRequest } from "./raw-http";

let sandbox: RunningSandbox;
let port: number;
let lines: string[];
let key: string;
let cards: string;

async function start(limits: Partial<ConnectionLimits>) {
  const mine: string[] = [];
  lines = mine;
  sandbox = await startSandbox({ anchor: ANCHOR, limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, idleTimeoutMs: 5000, ...limits }, log: (line) => mine.push(line) });
  port = Number(new URL(sandbox.baseUrl).port);
  const [enterprise] = sandbox.manifest().enterprises;
  key = enterprise.api_key;
  cards = `/public/v1/enterprises/${enterprise.id}/corporate-cards/`;
}
afterEach(() => sandbox?.close());

const patchHead = () => {
  const [enterprise] = sandbox.manifest().enterprises;
  const sub = enterprise.subsidiaries[0];
  const id = sandbox.store.expensesOf(sub).find((e) => e.state === "approved")!.id;
  return `PATCH /public/v1/enterprises/${enterprise.id}/subsidiaries/${sub}/expenses/${id}/?secret=${key} HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"state":`;
};
const get = () => rawRequest(port, `GET ${cards} HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${key}\r\nConnection: close\r\n\r\n`);
const noKeyLogged = () => expect(lines.join("\n")).not.toContain(key);

it("a request head sent a byte at a time: 408 and closed at the headers timeout; others are served meanwhile", async () => {
  await start({});
  const slow = slowClient(port, `GET ${cards} HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${key}\r\n`, ["X", "-", "a", ":"], 40);
  expect((await get()).status).toBe(200);
  const answer = await slow.answer;
  expect(answer.status).toBe(408);
  expect(answer.json).toEqual({ status: 408, error: "The request head was not received within 300 ms." });
  expect(answer.headers.connection).toBe("close");
  expect(answer.piecesSent).toBeGreaterThan(0);
  expect(lines).toEqual(["408 headers timeout"]);
});

it("a body sent a byte at a time: 408 and closed at the request timeout; the record is untouched", async () => {
  await start({});
  const head = patchHead();
  const slow = slowClient(port, head, [" "], 40);
  expect((await get()).status).toBe(200);
  const answer = await slow.answer;
  expect(answer.status).toBe(408);
  expect(answer.json).toEqual({ status: 408, error: "The request was not received within 600 ms." });
  expect(lines).toEqual([expect.stringMatching(/^408 request timeout: PATCH \/public\/v1\/enterprises\/[^?]+\/expenses\/[0-9a-f-]+\/$/)]);
  noKeyLogged();
  const [enterprise] = sandbox.manifest().enterprises;
  expect(sandbox.store.expensesOf(enterprise.subsidiaries[0]).filter((e) => sandbox.store.transitionsOf(e.id).length > 0)).toEqual([]);
});

it("a body that stops arriving: 408 at the idle timeout, the connection closed", async () => {
  await start({ requestTimeoutMs: 10_000, idleTimeoutMs: 200 });
  const slow = slowClient(port, patchHead(), [], 40);
  expect((await get()).status).toBe(200);
  const answer = await slow.answer;
  expect(answer.status).toBe(408);
  expect(answer.json).toEqual({ status: 408, error: "The request body stopped arriving: nothing came for 200 ms." });
  expect(answer.headers.connection).toBe("close");
  expect(answer.ended).toBe(true);
  expect(lines).toEqual([expect.stringMatching(/^408 request body idle: PATCH \/public\/v1\/[^?]+\/$/)]);
  noKeyLogged();
});

describe("a body the answer does not need, sent a byte at a time (a pace the idle timeout never sees)", () => {
  // The request timeout is far off: only the drain's own limit (the idle timeout, in all) can end these.
  const limits = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, idleTimeoutMs: 200 };

  it("over the size limit: drained only until the idle timeout, then answered 413 and closed", async () => {
    await start(limits);
    const head = patchHead().replace("Content-Length: 1000", "Content-Length: 2000000");
    const answer = await slowClient(port, head, [" "], 40).answer;
    expect({ status: answer.status, json: answer.json, connection: answer.headers.connection }).toEqual({
      status: 413, json: { status: 413, error: "The request body is larger than 1048576 bytes." }, connection: "close",
    });
    expect(answer.error).not.toBe("no answer");
    expect(answer.piecesSent).toBeGreaterThan(0);
    expect(lines).toEqual([expect.stringMatching(/^413 unread body cut: PATCH \/public\/v1\/[^?]+\/$/)]);
    noKeyLogged();
  });

  it("of a refused request: answered at once, its connection closed at the idle timeout", async () => {
    await start(limits);
    const head = patchHead().replace(/^PATCH/, "DELETE");
    const answer = await slowClient(port, head, [" "], 40).answer;
    expect({ status: answer.status, json: answer.json }).toEqual({
      status: 405, json: { status: 405, error: "Method DELETE is not allowed; the service serves GET, HEAD, PATCH." },
    });
    expect(answer.error).not.toBe("no answer");
    expect(answer.piecesSent).toBeGreaterThan(0);
    expect(lines).toEqual([expect.stringMatching(/^405 unread body cut: DELETE \/public\/v1\/[^?]+\/$/)]);
    noKeyLogged();
  });

  it("sent at once, it is still read to its end and answered 413 cleanly, not cut", async () => {
    await start(limits);
    const body = `{"x":"${"a".repeat(1100 * 1024)}"}`;
    const head = patchHead().replace("Content-Length: 1000", `Content-Length: ${body.length}`).replace(/\{"state":$/, "");
    const answer = await rawRequest(port, [head, body]);
    expect({ status: answer.status, error: answer.error }).toEqual({ status: 413, error: null });
    expect(lines).toEqual([]);
  });
});

it("connections over the cap are answered 503 as they open; once the others go, requests are served", async () => {
  await start({ maxConnections: 3, headersTimeoutMs: 10_000, requestTimeoutMs: 10_000 });
  const held = await Promise.all([1, 2, 3].map(() => idleConnection(port)));
  try {
    const over = await rawRequest(port, `GET ${cards} HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${key}\r\n\r\n`, { waitForClose: true });
    expect(over.status).toBe(503);
    expect(over.headers["retry-after"]).toBe("1");
    expect(over.json).toEqual({ status: 503, error: "The sandbox is at its limit of 3 connections; try again in a moment." });
    expect(over.ended).toBe(true);
  } finally {
    for (const socket of held) socket.destroy();
  }
  // (The server hears of the closes a moment later.)
  let served = await get();
  for (let i = 0; i < 100 && served.status !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    served = await get();
  }
  expect(served.status).toBe(200);
  expect(lines[0]).toBe("503 over connection cap (3)");
});
