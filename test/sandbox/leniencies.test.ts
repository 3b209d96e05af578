/**
 * The sandbox's leniencies, decided (issue 25; docs/sandbox.md, "Leniencies decided"). paid_at: ISO 8601 in
 * its extended form only, as the spec writes it; a space for T, a basic offset (+0530) and a lowercase t or z
 * are refused with a 400 that names what is wrong, while the add-in, which takes those forms from a person's
 * cell, still sends them (its builder writes the UTC form). The key: RFC 9110's credentials syntax, so one or
 * more spaces after the scheme (in any case) are taken, a tab or a second word is not.
 */
import { SpendClient, updateExpense } from "../../src/api";
import { normalizeTimestamp, parsePatchBody } from "../../src/domain";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let sub: string;
beforeAll(async () => {
  f = await withSandbox();
  sub = f.enterprise.subsidiaries[0];
});
afterAll(() => f.sandbox.close());

const taken = new Set<string>();
function approvedExpense(): string {
  const e = f.sandbox.store.expensesOf(sub).find((x) => x.state === "approved" && !taken.has(x.id))!;
  taken.add(e.id);
  return e.id;
}
const pathOf = (id: string) => `${f.prefix}/subsidiaries/${sub}/expenses/${id}/`;

describe("paid_at on the wire", () => {
  it.each([
    ["2026-03-31T12:00:00Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31T17:30:00+05:30", "2026-03-31T12:00:00Z"],
    ["2026-03-31T12:00Z", "2026-03-31T12:00:00Z"],
  ])("%s, ISO 8601's extended form, is taken (stored as %s)", async (sent, stored) => {
    const id = approvedExpense();
    const res = await f.call("PATCH", pathOf(id), { body: { state: "paid", paid_at: sent } });
    expect(res.status).toBe(200);
    expect(res.json.paid_at).toBe(stored);
  });

  it.each([
    ["2026-03-31 12:00:00Z", "a space between the date and the time instead of T"],
    ["2026-03-31T17:30:00+0530", "an offset without its colon (+0530 instead of +05:30)"],
    ["2026-03-31T07:00:00-0500", "an offset without its colon (-0500 instead of -05:00)"],
    ["2026-03-31t12:00:00Z", "a lowercase t or z instead of T or Z"],
    ["2026-03-31T12:00:00z", "a lowercase t or z instead of T or Z"],
    [" 2026-03-31T12:00:00Z", "white space around it"],
  ])("%j is refused with a 400 that says what is wrong, and nothing changes", async (sent, issue) => {
    const id = approvedExpense();
    const res = await f.call("PATCH", pathOf(id), { body: { state: "paid", paid_at: sent } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(`paid_at must be written as ISO 8601 in its extended form, e.g. 2026-03-31T12:00:00Z or 2026-03-31T17:30:00+05:30; this one has ${issue}.`);
    expect(f.sandbox.store.expense(sub, id)!.state).toBe("approved");
    // The same rule is the domain's, asked for the wire; a person's cell may hold these forms, read as UTC.
    expect(parsePatchBody({ state: "paid", paid_at: sent }, { wire: true })).toEqual({ ok: false, message: res.json.error });
    expect(normalizeTimestamp(sent)).not.toBeNull();
  });

  it("the add-in's builder takes a person's form and sends the UTC form, which the sandbox takes", async () => {
    const id = approvedExpense();
    const client = new SpendClient({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
    const updated = await updateExpense(client, sub, id, { state: "paid", paid_id: "PAY-L", paid_at: "2026-03-31 17:30+0530" });
    expect(updated.paid_at).toBe("2026-03-31T12:00:00Z");
  });
});

describe("the API key's header", () => {
  const cards = () => `${f.prefix}/corporate-cards/`;
  const withHeader = (value: string) => f.call("GET", cards(), { key: null, headers: { Authorization: value } });

  it.each([
    ["one space", (k: string) => `Api-Key ${k}`],
    ["three spaces (RFC 9110: 1*SP)", (k: string) => `Api-Key   ${k}`],
    ["spaces around the value (dropped by HTTP)", (k: string) => `  Api-Key ${k}  `],
    ["the scheme in lower case (RFC 9110: case-insensitive)", (k: string) => `api-key ${k}`],
    ["the scheme in capitals", (k: string) => `API-KEY ${k}`],
  ])("is taken with %s", async (_what, header) => {
    expect((await withHeader(header(f.enterprise.api_key))).status).toBe(200);
  });

  it.each([
    ["a tab between scheme and key", (k: string) => `Api-Key\t${k}`, "Unsupported authorization scheme: send Authorization: Api-Key <key>."],
    ["no space", (k: string) => `Api-Key${k}`, "Unsupported authorization scheme: send Authorization: Api-Key <key>."],
    ["a second word after the key", (k: string) => `Api-Key ${k} ${k}`, "Unsupported authorization scheme: send Authorization: Api-Key <key>."],
    ["a space inside the key", (k: string) => `Api-Key ${k.slice(0, 8)} ${k.slice(8)}`, "Unsupported authorization scheme: send Authorization: Api-Key <key>."],
    ["the key with a letter's case changed", (k: string) => `Api-Key ${k.toUpperCase()}`, "Invalid API key."],
  ])("is refused (403) with %s, and the message never repeats the key", async (_what, header, message) => {
    const res = await withHeader(header(f.enterprise.api_key));
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(message);
    expect(res.text).not.toContain(f.enterprise.api_key);
    expect(res.text.toUpperCase()).not.toContain(f.enterprise.api_key.toUpperCase());
  });
});

describe("a state (issue 24: compared the same way everywhere)", () => {
  it.each(["Paid", "PAID", "%20paid%20"])("?state=%s lists what ?state=paid lists", async (state) => {
    const list = async (value: string) => (await f.call("GET", `${f.prefix}/subsidiaries/${sub}/expenses/?page_size=1000&state=${value}`)).json;
    const exact = await list("paid");
    expect(exact.results.length).toBeGreaterThan(0);
    expect((await list(state)).results.map((e: { id: string }) => e.id)).toEqual(exact.results.map((e: { id: string }) => e.id));
  });

  it("a PATCH body's state stays strict: the add-in only ever sends the lower-case form", async () => {
    const id = approvedExpense();
    const res = await f.call("PATCH", pathOf(id), { body: { state: "Paid" } });
    expect([res.status, res.json.error]).toEqual([400, `state must be 'accounted' or 'paid'; got "Paid".`]);
    expect(f.sandbox.store.transitionsOf(id)).toHaveLength(0);
  });
});
