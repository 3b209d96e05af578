/**
 * A record becomes its table's row as Load and Refresh write it (src/sheets/render.ts, pure: plain calls, no Excel):
 * each value in its column's kind; the key redacted wherever the service echoed it; a value the spec does not list
 * said in the row's status (the row read-only); a record that does not match the API shown as sent, its status naming
 * every wrong field; its tracked values kept for the snapshot; valid and malformed records in the order sent.
 */
import { Expense, MalformedRecord, forgetSecret, registerSecret, type Page } from "../../src/api";
import { inPageOrder, malformedNote, malformedReason, recordRenderer, unlistedNote } from "../../src/sheets/render";
import type { ReadOnly, Snapshot } from "../../src/sheets/edits/snapshot";

const KEY = "sk_live_Qw7pL2";
const SHORT_KEY = "Zx9Kp4";
const LOWER_KEY = "zx9kp4q";
/** The service sets no least length for a key. */
const TINY_KEY = "Wq3";
beforeAll(() => {
  registerSecret(TINY_KEY);
  registerSecret(KEY);
  registerSecret(SHORT_KEY);
  registerSecret(LOWER_KEY);
});
afterAll(() => {
  forgetSecret(TINY_KEY);
  forgetSecret(KEY);
  forgetSecret(SHORT_KEY);
  forgetSecret(LOWER_KEY);
});

const EXPENSES = { resource: "expenses", enterpriseId: "ent_1", subsidiaryId: "sub_1" } as const;
const raw = (more: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: "exp_1", description: "Taxi", expense_type: "receipt", currency: "CLP", amount: 12000, usd_amount: 13.5, state: "approved", date: "2026-03-31",
  expense_number: 42, content_type: "image/png", cost_center_id: "cc_1", category_id: "cat_1", user_id: "u_1", fund_id: null, is_active: true,
  created_at: "2026-03-31T12:00:00Z", url: "https://r.example/1.png", document_id: "D-1", expense_document_type: "invoice", provider: "Cabify",
  payment_method: "card", net_amount: 10000, tax_amount: 2000, tax_rate: 19, subsidiary_currency: "CLP", subsidiary_expense_amount: 12000,
  accounted_id: null, paid_id: null, paid_at: null, ...more,
});
/** The expenses layout's row of `raw()`: identity, the tracked cells, Sync status, then the rest. */
const ROW = [
  "exp_1", 42, 46112, "Taxi", 12000, "CLP", "approved", "", "", "", "", "Cabify", "receipt", 10000, 2000, 19, 13.5, 12000, "CLP", "card",
  "u_1", "cc_1", "cat_1", "", "invoice", "D-1", "https://r.example/1.png", 46112.5, "Yes",
];
const STATUS_AT = 10;
const render = (params: Parameters<typeof recordRenderer>[0], record: { id: string } | MalformedRecord) => {
  const fresh: Snapshot = new Map();
  const readOnly: ReadOnly = new Map();
  const row = recordRenderer(params)(record, fresh, readOnly);
  return { row, fresh: Object.fromEntries(fresh), readOnly: Object.fromEntries(readOnly) };
};

describe("a valid record", () => {
  it("is its row in the layout's order, each value in its kind; its tracked values kept; nothing read-only", () => {
    expect(render(EXPENSES, Expense.parse(raw({ paid_id: " PAY-7 ", paid_at: "2026-04-01T08:00:00.250Z", state: "paid" })))).toEqual({
      row: [...ROW.slice(0, 6), "paid", "", " PAY-7 ", 46113 + 1 / 3 + 0.25 / 86400, ...ROW.slice(10)],
      fresh: { exp_1: { state: "paid", accounted_id: "", paid_id: "PAY-7", paid_at: "2026-04-01T08:00:00Z" } },
      readOnly: {},
    });
  });

  it("the key, wherever the service echoed it, never reaches a cell or the snapshot; a six-character key neither", () => {
    const result = render(EXPENSES, Expense.parse(raw({ description: `auth ${KEY}`, provider: SHORT_KEY, accounted_id: `A-${KEY}`, paid_id: SHORT_KEY })));
    expect(result.row[3]).toBe("auth [redacted]");
    expect(result.row[7]).toBe("A-[redacted]");
    expect(result.row[8]).toBe("[redacted]");
    expect(result.row[11]).toBe("[redacted]");
    expect(result.fresh).toEqual({ exp_1: { state: "approved", accounted_id: "A-[redacted]", paid_id: "[redacted]", paid_at: "" } });
  });

  it("a key shorter than six characters is redacted too, alone in a cell or inside one", () => {
    const result = render(EXPENSES, Expense.parse(raw({ description: TINY_KEY, provider: `x${TINY_KEY}`, document_id: "Wq" })));
    expect([result.row[3], result.row[11], result.row[25]]).toEqual(["[redacted]", "x[redacted]", "Wq"]);
  });

  it("a state the spec does not list: the row loads as sent, its status says so, its tracked values are kept", () => {
    expect(render(EXPENSES, Expense.parse(raw({ state: "archived" })))).toEqual({
      row: [...ROW.slice(0, 6), "archived", ...ROW.slice(7, STATUS_AT),
        'Read-only: the service sent state "archived" (the spec lists draft, pending, approved, accounted, paid, rejected). Sync states will not send this row; ask your Spend Sync contact.',
        ...ROW.slice(STATUS_AT + 1)],
      fresh: { exp_1: { state: "archived", accounted_id: "", paid_id: "", paid_at: "" } },
      readOnly: {},
    });
  });

  it("a key echoed into an unlisted state is redacted in the cell, the status and the snapshot, whatever its case", () => {
    // The snapshot keeps a state lower-cased: a key in capitals redacted only after that would be kept as sk_live_qw7pl2.
    const result = render(EXPENSES, Expense.parse(raw({ state: `x ${KEY}` })));
    expect(result.row[6]).toBe("x [redacted]");
    expect(result.row[STATUS_AT]).toBe(
      'Read-only: the service sent state "x [redacted]" (the spec lists draft, pending, approved, accounted, paid, rejected). Sync states will not send this row; ask your Spend Sync contact.');
    expect(result.fresh).toEqual({ exp_1: { state: "x [redacted]", accounted_id: "", paid_id: "", paid_at: "" } });
  });

  it("a card (no tracked values): its row only", () => {
    const card = { id: "card_1", last_four_digits: "4242", user_id: "u_1", bank_id: "b_1", national_balance_currency: "CLP", international_balance_currency: "USD", billing_day: 5, billing_mode: "monthly" };
    const result = render({ resource: "cards", enterpriseId: "ent_1" }, card);
    expect(result.fresh).toEqual({});
    expect(result.readOnly).toEqual({});
    expect(result.row).toContain("4242");
  });
});

describe("a record that does not match the API", () => {
  const issues = [
    { path: "approved_by", value: '"alice"', message: "expected array" },
    { path: "state", value: "7", message: `expected string near ${KEY}` },
  ];
  const bad = (more: Record<string, unknown>) => new MalformedRecord("exp_1", 0, raw(more), issues);

  it("is shown as sent (a field its column cannot read, as the field), its status naming every wrong field, read-only, its tracked values as text", () => {
    const params = { ...EXPENSES, expand: ["approved_by" as const] };
    const result = render(params, bad({ approved_by: "alice", state: 7, accounted_id: { n: 1 }, paid_at: "yesterday", amount: "12,000" }));
    const note = "Read-only: the service sent approved_by \"alice\" (expected array) and state 7 (expected string near [redacted]), which does not match the API. " +
      "Sync states will not send this row; ask your Spend Sync contact.";
    expect(result.row.slice(0, 12)).toEqual(["exp_1", 42, 46112, "Taxi", "12,000", "CLP", "7", '{"n":1}', "", "yesterday", note, "Cabify"]);
    expect(result.row).toContain("alice");
    expect(result.fresh).toEqual({ exp_1: { state: "7", accounted_id: '{"n":1}', paid_id: "", paid_at: "yesterday" } });
    expect(result.readOnly).toEqual({ exp_1: 'approved_by "alice" (expected array) and state 7 (expected string near [redacted])' });
  });

  it("its tracked values in the snapshot are redacted too", () => {
    const result = render(EXPENSES, bad({ state: `x ${LOWER_KEY}`, accounted_id: KEY, paid_id: `p${KEY}`, paid_at: `t ${KEY}` }));
    expect(result.fresh).toEqual({ exp_1: { state: "x [redacted]", accounted_id: "[redacted]", paid_id: "p[redacted]", paid_at: "t [redacted]" } });
  });

  it("a key in capitals in its state, as text or inside an object, is redacted before the state is lower-cased", () => {
    expect(render(EXPENSES, bad({ state: `x ${KEY}` })).fresh).toEqual({ exp_1: { state: "x [redacted]", accounted_id: "", paid_id: "", paid_at: "" } });
    expect(render(EXPENSES, bad({ state: { echo: KEY } })).fresh).toEqual({ exp_1: { state: '{"echo":"[redacted]"}', accounted_id: "", paid_id: "", paid_at: "" } });
  });

  it("a card that does not match: shown and noted, nothing kept for a sync", () => {
    const result = render({ resource: "cards", enterpriseId: "ent_1" }, new MalformedRecord("card_1", 0, { id: "card_1", billing_day: "5th" }, [issues[0]]));
    expect(result.readOnly).toEqual({});
    expect(result.fresh).toEqual({});
    expect(result.row).toContain("5th");
  });

  it("the notes and the reason, word for word", () => {
    const record = new MalformedRecord("e", 0, {}, [issues[0]]);
    expect(malformedReason(record)).toBe('approved_by "alice" (expected array)');
    expect(malformedNote(record)).toBe('Read-only: the service sent approved_by "alice" (expected array), which does not match the API. Sync states will not send this row; ask your Spend Sync contact.');
    expect(unlistedNote([{ field: "state", value: "archived", allowed: ["a", "b"] }, { field: "type", value: "fee", allowed: ["expense"] }])).toBe(
      'Read-only: the service sent state "archived" (the spec lists a, b) and type "fee" (the spec lists expense). Sync states will not send this row; ask your Spend Sync contact.');
  });
});

describe("a page's records in the order the service sent them", () => {
  const page = (results: { id: string }[], malformed: MalformedRecord[]): Page<{ id: string }> => ({ page: 1, count: null, results, malformed });
  const m = (id: string, index: number) => new MalformedRecord(id, index, {}, []);
  const ids = (records: ({ id: string } | MalformedRecord)[]) => records.map((r) => (r instanceof MalformedRecord ? `!${r.id}` : r.id));

  it("malformed ones at their places among the valid ones, first, between and last", () => {
    expect(ids(inPageOrder(page([{ id: "a" }, { id: "b" }], [m("x", 0), m("y", 2), m("z", 4)])))).toEqual(["!x", "a", "!y", "b", "!z"]);
    expect(ids(inPageOrder(page([{ id: "a" }, { id: "b" }], [m("x", 1)])))).toEqual(["a", "!x", "b"]);
    expect(ids(inPageOrder(page([], [m("x", 0), m("y", 1)])))).toEqual(["!x", "!y"]);
    expect(ids(inPageOrder(page([{ id: "a" }], [])))).toEqual(["a"]);
  });
});
