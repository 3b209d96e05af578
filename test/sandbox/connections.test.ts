/**
 * How connections end, as a client sees it: after a 413 the answer says `Connection: close` and the
 * server closes cleanly (FIN, no reset) once it is read; a keep-alive client's next request is answered.
 * And links are built from the server's own address, never from what the client put in Host.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { rawRequest } from "./raw-http";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let port: number;
beforeAll(async () => {
  f = await withSandbox();
  port = Number(new URL(f.sandbox.baseUrl).port);
});
afterAll(() => f.sandbox.close());

const accountedExpensePath = () => {
  const sub = f.enterprise.subsidiaries[0];
  const e = f.sandbox.store.expensesOf(sub).find((x) => x.state === "accounted")!;
  return `${f.prefix}/subsidiaries/${sub}/expenses/${e.id}/`;
};

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  socketId: number;
}

/** One request through a given agent; resolves with the answer or rejects with the socket error. */
function viaAgent(agent: Agent, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Api-Key ${f.enterprise.api_key}` };
    if (body !== undefined) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) });
    const req = httpRequest({ host: "127.0.0.1", port, method, path, agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text), socketId: socketIds.get(req.socket!)! }));
    });
    req.on("socket", (s) => {
      if (!socketIds.has(s)) socketIds.set(s, socketIds.size + 1);
    });
    req.on("error", reject);
    req.end(body);
  });
}
const socketIds = new Map<object, number>();

describe("oversized bodies", () => {
  it("a 2 MB PATCH on a keep-alive socket gets a JSON 413 with Connection: close, then a clean close", async () => {
    const body = JSON.stringify({ state: "paid", paid_id: "x".repeat(2 * 1024 * 1024) });
    const head = [
      `PATCH ${accountedExpensePath()} HTTP/1.1`, "Host: 127.0.0.1", `Authorization: Api-Key ${f.enterprise.api_key}`,
      "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`, "Connection: keep-alive",
    ].join("\r\n");
    const answer = await rawRequest(port, `${head}\r\n\r\n${body}`, { waitForClose: true });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ status: 413, error: "The request body is larger than 1048576 bytes." });
    expect(answer.headers.connection).toBe("close");
    // The client read the whole answer and then saw the server's FIN: no reset, no hang-up mid-request.
    expect({ ended: answer.ended, error: answer.error }).toEqual({ ended: true, error: null });
  });

  it("a keep-alive agent's next request after a 413 is answered, on a fresh connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = await viaAgent(agent, "PATCH", accountedExpensePath(), JSON.stringify({ state: "paid", paid_id: "y".repeat(2 * 1024 * 1024) }));
      expect(big.status).toBe(413);
      expect(big.headers.connection).toBe("close");
      const next = await viaAgent(agent, "GET", `${f.prefix}/corporate-cards/`);
      expect(next.status).toBe(200);
      expect(next.socketId).not.toBe(big.socketId);
      for (let i = 0; i < 3; i++) expect((await viaAgent(agent, "GET", `${f.prefix}/corporate-cards/`)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it("a refused method with a body leaves the keep-alive connection usable", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await viaAgent(agent, "DELETE", accountedExpensePath(), '{"state":"paid"}');
      expect(refused.status).toBe(405);
      const next = await viaAgent(agent, "GET", `${f.prefix}/corporate-cards/`);
      expect(next.status).toBe(200);
      expect(next.socketId).toBe(refused.socketId);
    } finally {
      agent.destroy();
    }
  });
});

describe("next and previous links", () => {
  const listPath = () => `${f.prefix}/subsidiaries/${f.enterprise.subsidiaries[0]}/expenses/?page=2&page_size=5`;

  it.each([
    ["Host", [["Host", "evil.example"]]],
    ["Host with a port", [["Host", "evil.example:8443"]]],
    ["X-Forwarded-Host", [["X-Forwarded-Host", "evil.example"], ["X-Forwarded-Proto", "https"]]],
  ] as const)("come from the server's own base URL whatever the client sends in %s", async (_name, headers) => {
    const lines = [`GET ${listPath()} HTTP/1.1`, `Authorization: Api-Key ${f.enterprise.api_key}`, "Connection: close"];
    if (!headers.some(([n]) => n === "Host")) lines.push("Host: 127.0.0.1");
    for (const [n, v] of headers) lines.push(`${n}: ${v}`);
    const answer = await rawRequest(port, `${lines.join("\r\n")}\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(answer.json.next).toBe(`${f.sandbox.baseUrl}${listPath().replace("page=2", "page=3")}`);
    expect(answer.json.previous).toBe(`${f.sandbox.baseUrl}${listPath().replace("page=2", "page=1")}`);
  });

  it("come from the server's own base URL for an absolute-form request to another host", async () => {
    const lines = [`GET http://evil.example${listPath()} HTTP/1.1`, "Host: evil.example", `Authorization: Api-Key ${f.enterprise.api_key}`, "Connection: close"];
    const answer = await rawRequest(port, `${lines.join("\r\n")}\r\n\r\n`);
    expect(answer.json.next).toBe(`${f.sandbox.baseUrl}${listPath().replace("page=2", "page=3")}`);
  });
});
