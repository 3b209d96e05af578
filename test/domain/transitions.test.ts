import {
  ALLOWANCE_STATES,
  EXPENSE_STATES,
  TARGET_STATES,
  checkTransition,
  normalizeTimestamp,
  parsePatchBody,
} from "../../src/domain";

describe("allowance transitions (spec 3.1, 4.5)", () => {
  const allowed = new Set(["approved->accounted", "approved->paid", "accounted->paid"]);
  for (const from of ALLOWANCE_STATES) {
    for (const to of TARGET_STATES) {
      const key = `${from}->${to}`;
      it(`${key} is ${allowed.has(key) ? "allowed" : "refused with the spec's message"}`, () => {
        const verdict = checkTransition("allowance", from, { state: to });
        if (allowed.has(key)) expect(verdict).toEqual({ ok: true });
        else if (from === to) expect(verdict).toEqual({ ok: false, message: `Allowance is already in ${to} state` });
        else expect(verdict).toEqual({ ok: false, message: `Invalid state transition from '${from}' to '${to}'.` });
      });
    }
  }

  it("refuses paid_id or paid_at with target accounted, before any other rule", () => {
    for (const extra of [{ paid_id: "P1" }, { paid_at: "2026-01-01T00:00:00Z" }]) {
      const verdict = checkTransition("allowance", "approved", { state: "accounted", ...extra });
      expect(verdict).toEqual({ ok: false, message: "paid_id and paid_at must not be sent when state is 'accounted'." });
    }
  });

  it("takes paid_id and paid_at with target paid: a payment is recorded with its id and date", () => {
    for (const resource of ["allowance", "expense"] as const) {
      for (const from of ["approved", "accounted"]) {
        expect(checkTransition(resource, from, { state: "paid", paid_id: "P1", paid_at: "2026-01-01T00:00:00Z" })).toEqual({ ok: true });
        expect(checkTransition(resource, from, { state: "paid", paid_at: "2026-01-01T00:00:00Z" })).toEqual({ ok: true });
      }
    }
  });
});

describe("expense transitions (spec 3.2, 4.8)", () => {
  const allowed = new Set(["approved->accounted", "approved->paid", "accounted->paid"]);
  for (const from of EXPENSE_STATES) {
    for (const to of TARGET_STATES) {
      const key = `${from}->${to}`;
      it(`${key}`, () => {
        const verdict = checkTransition("expense", from, { state: to });
        if (allowed.has(key)) expect(verdict).toEqual({ ok: true });
        else if (from === to) expect(verdict).toEqual({ ok: false, message: `Expense is already in ${to} state` });
        else {
          expect(verdict.ok).toBe(false);
          expect(!verdict.ok && verdict.message.startsWith(`Cannot change state from '${from}'`)).toBe(true);
        }
      });
    }
  }
});

describe("PATCH body parsing", () => {
  it("accepts the four fields and normalises paid_at to UTC", () => {
    expect(parsePatchBody({ state: "paid", accounted_id: "A1", paid_id: "P1", paid_at: "2026-03-31T09:00:00-03:00" })).toEqual({
      ok: true,
      patch: { state: "paid", accounted_id: "A1", paid_id: "P1", paid_at: "2026-03-31T12:00:00Z" },
    });
  });

  it.each([
    [null, "The request body must be a JSON object."],
    [[], "The request body must be a JSON object."],
    [{}, "state is required: send 'accounted' or 'paid'."],
    [{ state: "approved" }, `state must be 'accounted' or 'paid'; got "approved".`],
    [{ state: "paid", paid_id: 5 }, "paid_id must be a string."],
    [{ state: "paid", paid_at: "2026-03-31" }, "paid_at must be an ISO 8601 date-time with Z or an offset, e.g. 2026-03-31T12:00:00Z."],
    [{ state: "paid", paid_at: "2026-02-30T10:00:00Z" }, "paid_at must be an ISO 8601 date-time with Z or an offset, e.g. 2026-03-31T12:00:00Z."],
    [{ state: "paid", paid_by: "me" }, "Unknown field 'paid_by'; allowed fields are state, accounted_id, paid_id, paid_at."],
    [{ state: "paid", accounted_id: "x".repeat(256) }, "accounted_id must be at most 255 characters."],
  ])("refuses %j", (body, message) => {
    expect(parsePatchBody(body)).toEqual({ ok: false, message });
  });

  it("treats null fields as not sent", () => {
    expect(parsePatchBody({ state: "accounted", paid_id: null, paid_at: null })).toEqual({ ok: true, patch: { state: "accounted" } });
  });
});

describe("timestamps", () => {
  it.each([
    ["2026-03-31T12:00:00Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31T12:00Z", "2026-03-31T12:00:00Z"],
    ["2026-03-31T23:30:00.250+0100", "2026-03-31T22:30:00.250Z"],
    ["2026-01-01T01:00:00+05:30", "2025-12-31T19:30:00Z"],
  ])("%s -> %s", (input, output) => expect(normalizeTimestamp(input)).toBe(output));

  it.each(["2026-03-31T12:00:00", "yesterday", "2026-13-01T00:00:00Z", "2026-03-31T24:00:00Z"])("refuses %s", (input) => {
    expect(normalizeTimestamp(input)).toBeNull();
  });
});
