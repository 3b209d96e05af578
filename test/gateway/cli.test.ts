/** The operator's contract: `npm run gateway -- --target URL --allow-origin ORIGIN --port 0 --json`. */
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { spawnGateway, type SpawnedGateway } from "./spawn-gateway";

const ADDIN = "https://addin.example.com";
// Each case starts npm, tsx and node: on a machine busy with the other suites that alone can take a while.
jest.setTimeout(120_000);
let f: SandboxFixture;
beforeAll(async () => {
  f = await withSandbox();
});
afterAll(() => f.sandbox.close());

/** Reads stderr until `count` lines have arrived (the access log is written as requests finish). */
async function logLines(run: SpawnedGateway, count: number): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const lines = run.stderr().split("\n").filter((l) => l !== "");
    if (lines.length >= count) return lines;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`expected ${count} log lines; got: ${run.stderr()}`);
}

describe("npm run gateway -- … --json --port 0", () => {
  it("prints exactly one line with base_url, forwards to the service, logs JSON lines on stderr without the key, and ends with exit 0 on SIGTERM", async () => {
    const run = spawnGateway(["--target", f.sandbox.baseUrl, "--allow-origin", ADDIN, "--allow-origin", "https://second.example.com", "--port", "0", "--json"]);
    let exited = false;
    try {
      const line = await run.firstLine;
      expect(line).toMatch(/^\{"base_url": "http:\/\/127\.0\.0\.1:\d+"\}$/);
      const { base_url: base } = JSON.parse(line);
      const path = `${f.prefix}/subsidiaries/${f.enterprise.subsidiaries[0]}/expenses/?page_size=2`;
      const res = await fetch(`${base}${path}`, { headers: { Authorization: `Api-Key ${f.enterprise.api_key}`, Origin: ADDIN } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe(ADDIN);
      expect((await res.json()).results).toHaveLength(2);
      const preflight = await fetch(`${base}${path}`, { method: "OPTIONS", headers: { Origin: "https://evil.example.net", "Access-Control-Request-Method": "PATCH" } });
      expect(preflight.status).toBe(403);

      const logged = (await logLines(run, 2)).map((l) => JSON.parse(l));
      expect(logged).toEqual([
        expect.objectContaining({ method: "GET", path, status: 200, origin: ADDIN }),
        expect.objectContaining({ method: "OPTIONS", path, status: 403, origin: "https://evil.example.net" }),
      ]);
      expect(run.stderr()).not.toContain(f.enterprise.api_key);
      expect(run.stdout().split("\n").filter((l) => l !== "")).toHaveLength(1);

      run.signal("SIGTERM");
      expect(await run.exited).toBe(0);
      exited = true;
    } finally {
      if (!exited) {
        run.kill();
        await run.exited;
      }
    }
  });

  it("ends with exit 0 on SIGINT (Ctrl-C)", async () => {
    const run = spawnGateway(["--target", f.sandbox.baseUrl, "--allow-origin", ADDIN, "--port", "0", "--json"]);
    try {
      await run.firstLine;
      run.signal("SIGINT");
      expect(await run.exited).toBe(0);
    } finally {
      if (run.child.exitCode === null) run.kill();
    }
  });

  it.each([
    [["--allow-origin", ADDIN], "--target is required"],
    [["--target", "http://127.0.0.1:1"], "--allow-origin is required"],
    [["--target", "http://api.example.com", "--allow-origin", ADDIN], "--target: The target must be an https URL (http only on loopback)"],
    [["--target", "https://api.example.com", "--allow-origin", "*"], "--allow-origin: An allowed origin must be scheme://host[:port]"],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--port", "http"], "--port must be a whole number from 0 to 65535; got 'http'."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--colour"], "Unknown option '--colour'"],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--max-connections", "0"], "--max-connections must be above 0; got '0'."],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--headers-timeout", "5000", "--request-timeout", "1000"], "--request-timeout: requestTimeoutMs (1000) must be at least headersTimeoutMs (5000)"],
    [["--target", "https://api.example.com", "--allow-origin", ADDIN, "--public-url", "ftp://gw.example.com"], "--public-url: The public URL must be the gateway's own https URL"],
  ])("refuses %j with exit 2, naming the flag", async (args, message) => {
    const run = spawnGateway(args);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain(`gateway: ${message}`);
  });
});
