/**
 * paid_at: four-digit years, real calendar dates, RFC 3339 out, and a UTC value within 0001–9999.
 * Checked on the wire (the sandbox) and in the domain function the client's PATCH body builder uses.
 */
import { normalizeTimestamp, parsePatchBody } from "../../src/domain";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let sub: string;
beforeAll(async () => {
  f = await withSandbox();
  sub = f.enterprise.subsidiaries[0];
});
afterAll(() => f.sandbox.close());

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const taken = new Set<string>();
function approvedExpensePath(): string {
  const e = f.sandbox.store.expensesOf(sub).find((x) => x.state === "approved" && !taken.has(x.id))!;
  taken.add(e.id);
  return `${f.prefix}/subsidiaries/${sub}/expenses/${e.id}/`;
}

describe("paid_at kept as written, in UTC", () => {
  it.each([
    ["0024-05-01T10:00:00Z", "0024-05-01T10:00:00Z"],
    ["0099-12-31T23:00:00-02:00", "0100-01-01T01:00:00Z"],
    ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"],
    ["0004-02-29T12:00:00Z", "0004-02-29T12:00:00Z"],
    ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"],
    ["9999-12-31T23:59:59+01:00", "9999-12-31T22:59:59Z"],
    ["2026-03-31T09:00:00.5-03:00", "2026-03-31T12:00:00.500Z"],
  ])("%s is stored and answered as %s", async (sent, stored) => {
    const path = approvedExpensePath();
    const res = await f.call("PATCH", path, { body: { state: "paid", paid_at: sent } });
    expect(res.status).toBe(200);
    expect(res.json.paid_at).toBe(stored);
    expect(res.json.paid_at).toMatch(RFC3339_UTC);
    expect((await f.call("GET", path)).json.paid_at).toBe(stored);
    // The client's builder gives the same value, so what it previews is what the server stores.
    expect(normalizeTimestamp(sent)).toBe(stored);
    expect(parsePatchBody({ state: "paid", paid_at: sent })).toEqual({ ok: true, patch: { state: "paid", paid_at: stored } });
  });

  it.each([
    ["9999-12-31T23:59:59-01:00", "range"],
    ["0001-01-01T00:30:00+01:00", "range"],
    ["0000-01-01T00:00:00Z", "range"],
    ["+010000-01-01T00:00:00Z", "format"],
    ["2026-02-30T10:00:00Z", "format"],
    ["2026-04-31T10:00:00Z", "format"],
    ["0100-02-29T10:00:00Z", "format"],
    ["1900-02-29T10:00:00Z", "format"],
  ])("%s is refused with a 400 naming paid_at, by the sandbox and by the client's builder (%s)", async (sent, reason) => {
    const path = approvedExpensePath();
    taken.delete(path.split("/").at(-2)!); // refused: the record stays approved
    const res = await f.call("PATCH", path, { body: { state: "paid", paid_at: sent } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(reason === "range" ? /^paid_at must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z/ : /^paid_at must be an ISO 8601 date-time/);
    expect(normalizeTimestamp(sent)).toBeNull();
    expect(parsePatchBody({ state: "paid", paid_at: sent })).toEqual({ ok: false, message: res.json.error });
  });
});
