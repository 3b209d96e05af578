/**
 * The gateway on a real socket against peers that stall (issue 25: 60 slow connections were all still open
 * after 20 s, and an upstream sending a byte a second held a connection forever). With limits shortened for
 * the test (hundreds of milliseconds), each stalled exchange is closed at its own limit and answered with the
 * proper status where one can still be sent; connections over the cap are refused with 503; /healthz is
 * answered throughout; every one is logged, without the key. No assertion is about elapsed time.
 */
import type { AccessLogEntry } from "../../src/gateway";
import { startGateway, type NodeListen, type RunningGateway } from "../../src/gateway/node-server";
import { rawRequest } from "../sandbox/raw-http";
import { dripAnswer, idleConnection, slowClient, slowUpstream, type SlowUpstream } from "../support/slow-peer";

const KEY = "sk_live_slowpeers_0123456789";
const AUTH = `Authorization: Api-Key ${KEY}`;

let gateway: RunningGateway;
let upstream: SlowUpstream;
let logs: AccessLogEntry[];
let port: number;
/** Which of the Node server's two paths runs (each describe below runs on both). */
let handler: "fast" | "fetch" = "fast";

/** How the upstream answers each path: /stall-head never answers, /stall-body sends its head and a bit, /drip a byte at a time. */
async function start(listen: NodeListen = {}, limits: { idleTimeoutMs?: number; answerTimeoutMs?: number; timeoutMs?: number } = {}) {
  upstream = await slowUpstream((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path.endsWith("/stall-head/")) return; // never answers
    if (path.endsWith("/stall-body/")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return dripAnswer(res, '{"count": 1, "results": [', [], 0);
    }
    if (path.endsWith("/stall-first/")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.flushHeaders();
    }
    if (path.endsWith("/drip/")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return dripAnswer(res, '{"results": [', ["0,"], 40);
    }
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ok: true, got: body }));
    });
  });
  // This gateway's own list: a late line of the last test's gateway cannot land in it.
  const mine: AccessLogEntry[] = [];
  logs = mine;
  gateway = await startGateway({
    target: upstream.url, allowOrigins: ["https://addin.example.com"], log: (entry) => mine.push(entry), ...limits,
  }, { headersTimeoutMs: 300, requestTimeoutMs: 600, handler, ...listen });
  port = Number(new URL(gateway.baseUrl).port);
}

afterEach(async () => {
  await gateway?.close();
  await upstream?.close();
});

const healthz = () => rawRequest(port, "GET /healthz HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n");
const eventsOf = () => logs.filter((l) => l.event).map((l) => [l.status, l.event, l.method, l.path]);
const noKeyInLogs = () => expect(JSON.stringify(logs)).not.toContain(KEY);

describe.each(["fast", "fetch"] as const)("on the %s path", (path) => {
  beforeAll(() => {
    handler = path;
  });

  describe("a caller that stalls", () => {
    it("a request head sent a byte at a time is answered 408 and closed at the headers timeout; /healthz answers meanwhile", async () => {
      await start();
      const slow = slowClient(port, `GET /public/v1/x/ HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\n`, ["X", "-", "a", ":", " "], 40);
      expect((await healthz()).status).toBe(200);
      const answer = await slow.answer;
      expect(answer.status).toBe(408);
      expect(answer.json).toEqual({ status: 408, error: "The request head was not received within 300 ms." });
      expect(answer.headers.connection).toBe("close");
      expect(answer.error).not.toBe("no answer");
      expect(answer.piecesSent).toBeGreaterThan(0);
      expect(upstream.seen).toEqual([]);
      expect(eventsOf()).toEqual([[408, "headers timeout", "-", "-"]]);
      noKeyInLogs();
    });

    it("a body sent a byte at a time is answered 408 and closed at the request timeout", async () => {
      await start({}, { idleTimeoutMs: 5000 });
      const head = `PATCH /public/v1/enterprises/e/subsidiaries/s/expenses/x/?token=t0k3n HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
      const slow = slowClient(port, head, [" "], 40);
      expect((await healthz()).status).toBe(200);
      const answer = await slow.answer;
      expect(answer.status).toBe(408);
      expect(answer.json).toEqual({ status: 408, error: "The request was not received within 600 ms." });
      expect(upstream.seen).toEqual([]);
      expect(eventsOf()).toEqual([[408, "request timeout", "PATCH", "/public/v1/enterprises/e/subsidiaries/s/expenses/x/?token=[redacted]"]]);
      noKeyInLogs();
    });

    it("a body that stops arriving is answered 408 at the idle timeout, and the connection is not used again", async () => {
      await start({ requestTimeoutMs: 10_000 }, { idleTimeoutMs: 200 });
      const head = `PATCH /public/v1/enterprises/e/subsidiaries/s/expenses/x/ HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"state":`;
      const slow = slowClient(port, head, [], 40);
      expect((await healthz()).status).toBe(200);
      const answer = await slow.answer;
      expect(answer.status).toBe(408);
      expect(answer.json).toEqual({ status: 408, error: "The request body stopped arriving: nothing came for 200 ms." });
      expect(answer.headers.connection).toBe("close");
      expect(answer.ended).toBe(true);
      expect(upstream.seen).toEqual([]);
      expect(eventsOf()).toEqual([[408, "request body idle", "PATCH", "/public/v1/enterprises/e/subsidiaries/s/expenses/x/"]]);
      noKeyInLogs();
    });

    it("a whole request in time is served as ever", async () => {
      await start();
      const body = '{"state":"paid"}';
      const answer = await rawRequest(port, `PATCH /public/v1/x/ HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ ok: true, got: body });
      expect(eventsOf()).toEqual([]);
    });
  });

  describe("a service that stalls", () => {
    const get = (path: string) => rawRequest(port, `GET /public/v1/${path}/ HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\nConnection: close\r\n\r\n`, { waitForClose: true });

    it("one that never answers: 504 at the upstream timeout", async () => {
      await start({}, { timeoutMs: 300 });
      const answer = get("stall-head");
      expect((await healthz()).status).toBe(200);
      expect(await answer).toMatchObject({ status: 504, json: { status: 504, error: "The service did not answer within 300 ms." } });
    });

    it("one that sends its head and then nothing: 504 at the idle timeout, not a 200 that never ends", async () => {
      await start({}, { idleTimeoutMs: 200 });
      const answer = get("stall-first");
      expect((await healthz()).status).toBe(200);
      expect(await answer).toMatchObject({ status: 504, json: { status: 504, error: "The service started answering, then sent nothing for 200 ms." } });
      expect(eventsOf()).toEqual([[504, "answer idle", "GET", "/public/v1/stall-first/"]]);
    });

    it("one that stops mid-body: the relayed answer is cut at the idle timeout, and the cut is logged", async () => {
      await start({}, { idleTimeoutMs: 200 });
      const answer = get("stall-body");
      expect((await healthz()).status).toBe(200);
      const got = await answer;
      expect(got.status).toBe(200);
      expect(got.body).toBe('{"count": 1, "results": [');
      expect(got.error === null ? got.ended : true).toBe(true);
      expect(eventsOf()).toEqual([[200, "answer idle: cut after the head was sent", "GET", "/public/v1/stall-body/"]]);
    });

    it("one that sends a byte now and then (never idle): cut at the answer timeout", async () => {
      // The idle timeout is longer than the whole answer's: however the machine stalls the drip, it is the deadline that cuts.
      await start({}, { idleTimeoutMs: 5000, timeoutMs: 300, answerTimeoutMs: 800 });
      const answer = get("drip");
      expect((await healthz()).status).toBe(200);
      const got = await answer;
      expect(got.status).toBe(200);
      expect(got.body).toMatch(/^\{"results": \[(0,)+$/);
      expect(eventsOf()).toEqual([[200, "answer timeout: cut after the head was sent", "GET", "/public/v1/drip/"]]);
    });

    it("each chunk pushes the idle timeout back: a drip far faster than it is cut at the answer timeout, never as idle", async () => {
      // A byte every 40 ms against 600 ms idle: an idle timer armed once and never pushed back would cut at 600 ms.
      await start({}, { idleTimeoutMs: 600, timeoutMs: 300, answerTimeoutMs: 1800 });
      const got = await get("drip");
      expect(got.status).toBe(200);
      expect(got.body.length).toBeGreaterThan('{"results": ['.length + 2 * 20);
      expect(eventsOf()).toEqual([[200, "answer timeout: cut after the head was sent", "GET", "/public/v1/drip/"]]);
    });
  });

  describe("connections over the cap", () => {
    it("with every connection busy, a newcomer is answered 503 (Retry-After) and /healthz 200; idle ones never take the last slot", async () => {
      await start({ maxConnections: 3, headersTimeoutMs: 10_000, requestTimeoutMs: 10_000 }, { timeoutMs: 10_000 });
      // Three requests waiting on a service that does not answer: the cap is busy.
      const busy = [1, 2, 3].map(() => rawRequest(port, `GET /public/v1/stall-head/ HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\n\r\n`, { waitForClose: true }));
      for (let i = 0; i < 500 && upstream.seen.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(upstream.seen.length).toBe(3);
      const held = [];
      try {
        const over = await rawRequest(port, `GET /public/v1/x/ HTTP/1.1\r\nHost: gw\r\n${AUTH}\r\n\r\n`, { waitForClose: true });
        expect(over.status).toBe(503);
        expect(over.headers["retry-after"]).toBe("1");
        expect(over.json).toEqual({ status: 503, error: "The gateway is at its limit of 3 connections; try again in a moment." });
        expect(over.ended).toBe(true);
        expect(upstream.seen.length).toBe(3);

        // Sixty idle connections on top (the overflow is sixteen): each newcomer closes the one idle longest,
        // so /healthz, arriving after them all, still gets in and is answered.
        for (let i = 0; i < 60; i++) held.push(await idleConnection(port));
        const health = await rawRequest(port, "GET /healthz HTTP/1.1\r\nHost: gw\r\n\r\n", { waitForClose: true });
        expect(health.status).toBe(200);
        expect(health.json).toEqual({ status: "ok" });
        // Let in only to be answered: the connection does not stay.
        expect(health.headers.connection).toBe("close");
        expect(health.ended).toBe(true);
      } finally {
        for (const socket of held) socket.destroy();
        await gateway.close();
        await Promise.all(busy);
      }
      expect(eventsOf()).toEqual([[503, "over connection cap", "GET", "/public/v1/x/"]]);
      noKeyInLogs();
    });
  });

  describe("the request head", () => {
    it("with two Host headers is refused with 400, and never forwarded", async () => {
      await start();
      const answer = await rawRequest(port, `GET /public/v1/x/ HTTP/1.1\r\nHost: gw\r\nHost: evil.example\r\n${AUTH}\r\n\r\n`, { waitForClose: true });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ status: 400, error: "A request must carry one Host header; this one has several." });
      expect(answer.headers.connection).toBe("close");
      expect(upstream.seen).toEqual([]);
      expect(eventsOf()).toEqual([[400, "duplicate Host", "GET", "/public/v1/x/"]]);
    });
  });
});
