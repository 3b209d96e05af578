/**
 * Hostile requests against the real sandbox on loopback, each with the status decided for it
 * (docs/sandbox.md). Every one must get an HTTP answer with a JSON error body `{status, error}` (2xx
 * answers excepted), never an empty reply, never a 5xx. Sent over raw sockets so that requests fetch
 * cannot express (unknown methods, HTTP/1.0 without Host, broken framing) are in the same table.
 */
import { parsePatchBody } from "../../src/domain";
import { hostileCases, type HostileCase } from "./hostile-cases";
import { rawRequest, type RawAnswer } from "./raw-http";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let port: number;
beforeAll(async () => {
  f = await withSandbox();
  port = Number(new URL(f.sandbox.baseUrl).port);
});
afterAll(() => f.sandbox.close());

function verdict(c: HostileCase, answer: RawAnswer): string | null {
  if (answer.status === null) return `empty reply (${answer.error ?? "closed"})`;
  if (answer.status >= 500 && answer.status !== c.status) return `5xx ${answer.status}: ${answer.body.slice(0, 120)}`;
  if (answer.status !== c.status) return `status ${answer.status}, decided ${c.status}: ${answer.body.slice(0, 160)}`;
  if (c.status >= 400) {
    if (answer.json?.status !== c.status || typeof answer.json?.error !== "string") return `not a JSON error body: ${answer.body.slice(0, 120)}`;
    if (c.error && !c.error.test(answer.json.error)) return `message ${JSON.stringify(answer.json.error)} does not match ${c.error}`;
  }
  if (c.check) return c.check(answer);
  return null;
}

describe(`a corpus of hostile requests`, () => {
  it("answers each as decided: JSON errors, no empty replies, no 5xx", async () => {
    const cases = hostileCases(f);
    const failures: string[] = [];
    const byStatus = new Map<number | string, number>();
    let empty = 0;
    let fiveXx = 0;
    for (const c of cases) {
      const answer = await rawRequest(port, c.request);
      byStatus.set(answer.status ?? "none", (byStatus.get(answer.status ?? "none") ?? 0) + 1);
      if (answer.status === null) empty++;
      if (answer.status !== null && answer.status >= 500) fiveXx++;
      const problem = verdict(c, answer);
      if (problem) failures.push(`${c.name}: ${problem}`);
    }
    const summary = [...byStatus].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([s, n]) => `${s}: ${n}`).join(", ");
    process.stdout.write(`hostile corpus: ${cases.length} cases; ${cases.length - failures.length} as decided; ` +
      `${empty} empty replies; ${fiveXx} 5xx; statuses ${summary}\n`);
    expect(failures).toEqual([]);
    expect(fiveXx).toBe(0);
    expect(empty).toBe(0);
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect({ empty, fiveXx }).toEqual({ empty: 0, fiveXx: 0 });
    // Not one of the refused PATCHes changed a record.
    expect(f.sandbox.store.data.transitions).toEqual([]);
  });
});

describe("the domain's messages (shared with the client)", () => {
  it("never serialise a whole value: a state nested 10,000 deep is described, not stringified", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(parsePatchBody({ state: deep })).toEqual({ ok: false, message: "state must be 'accounted' or 'paid'; got an array." });
    expect(parsePatchBody({ state: "x".repeat(100_000) })).toEqual({
      ok: false, message: `state must be 'accounted' or 'paid'; got "${"x".repeat(64)}"….`,
    });
  });
});
