import { mkdtempSync, readdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSandbox } from "../support/process";

const api = (base: string, key: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { Authorization: `Api-Key ${key}`, "Content-Type": "application/json" } });

describe("the start-up contract: npm run sandbox -- --port 0 --json", () => {
  it("prints exactly one JSON line with base_url, enterprises, keys, subsidiaries and cards, then serves", async () => {
    const run = spawnSandbox(["--port", "0", "--json"], "npm");
    try {
      const line = await run.firstLine;
      const manifest = JSON.parse(line);
      expect(manifest.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(manifest.enterprises.length).toBeGreaterThanOrEqual(2);
      const [e] = manifest.enterprises;
      expect(Object.keys(e).sort()).toEqual(["api_key", "cards", "id", "names", "subsidiaries"]);
      expect(e.subsidiaries.length).toBeGreaterThanOrEqual(2);
      expect(e.cards.length).toBeGreaterThanOrEqual(3);
      const res = await api(manifest.base_url, e.api_key, `/public/v1/enterprises/${e.id}/corporate-cards/${e.cards[0].id}/billing-periods/${e.cards[0].billing_periods[0]}/movements/?page_size=1`);
      expect((await res.json()).count).toBeGreaterThanOrEqual(120);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(run.stdout().trim().split("\n")).toHaveLength(1);
    } finally {
      process.kill(-run.child.pid!, "SIGTERM");
      await run.exited;
    }
  });

  it.each(["SIGTERM", "SIGINT"] as const)("ends cleanly with exit 0 on %s", async (signal) => {
    const run = spawnSandbox(["--port", "0", "--json"]);
    await run.firstLine;
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
  });

  it("without --json prints a friendly banner with the key and a curl example", async () => {
    const run = spawnSandbox(["--port", "0"]);
    try {
      await run.firstLine;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(run.stdout()).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(run.stdout()).toMatch(/API key\s+sk_sandbox_/);
      expect(run.stdout()).toMatch(/curl -H "Authorization: Api-Key/);
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
    }
  });

  it.each([
    [["--port", "abc"], "--port must be a port number from 0 to 65535; got 'abc'."],
    [["--error-rate", "2"], "--error-rate must be a share from 0 to 1; got '2'."],
    [["--colour"], "Unknown option '--colour'"],
  ])("refuses %j with a clear message and exit 2", async (args, message) => {
    const run = spawnSandbox(args);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain(message);
  });

  it("--data keeps state across a restart, written atomically", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-data-"));
    const file = join(dir, "state.json");
    const first = spawnSandbox(["--port", "0", "--json", "--data", file, "--seed", "5"]);
    const m1 = JSON.parse(await first.firstLine);
    const e = m1.enterprises[0];
    const sub = e.subsidiaries[0];
    const list = await (await api(m1.base_url, e.api_key, `/public/v1/enterprises/${e.id}/subsidiaries/${sub}/expenses/?state=approved&page_size=1`)).json();
    const id = list.results[0].id;
    const patched = await api(m1.base_url, e.api_key, `/public/v1/enterprises/${e.id}/subsidiaries/${sub}/expenses/${id}/`, {
      method: "PATCH", body: JSON.stringify({ state: "paid", paid_id: "KEEP-ME" }),
    });
    expect(patched.status).toBe(200);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(dir)).toEqual(["state.json"]); // no temp file left behind

    const second = spawnSandbox(["--port", "0", "--json", "--data", file]);
    try {
      const m2 = JSON.parse(await second.firstLine);
      expect(m2.enterprises[0].api_key).toBe(e.api_key);
      const after = await (await api(m2.base_url, e.api_key, `/public/v1/enterprises/${e.id}/subsidiaries/${sub}/expenses/${id}/`)).json();
      expect(after).toMatchObject({ state: "paid", paid_id: "KEEP-ME" });
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });
});
