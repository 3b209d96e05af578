/**
 * The small rules under every request and message: what an id is, the longest text field the service takes,
 * how a value the service refused is quoted back, and which states each resource has.
 */
import { EXPENSE_STATES, MAX_ID_LENGTH, describeValue, isUuid, parsePatchBody, statesOf } from "../../src/domain";

describe("isUuid: the service's ids (spec section 1)", () => {
  it("takes 8-4-4-4-12 hexadecimal digits in either case, of any version", () => {
    for (const id of ["3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3F2504E0-4F89-41D3-9A0C-0305E82C3301", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-7fff-ffff-ffffffffffff"]) {
      expect([id, isUuid(id)]).toEqual([id, true]);
    }
  });

  it("refuses a group one digit short or long, a letter past f, anything around it, and the first 8 characters alone", () => {
    const good = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
    const groups = good.split("-");
    const bad: string[] = ["", "3f2504e0", `x${good}`, `${good}x`, ` ${good}`, `${good}\n`, good.replace(/-/g, ""), `{${good}}`];
    groups.forEach((group, i) => {
      const withGroup = (g: string) => groups.map((h, j) => (j === i ? g : h)).join("-");
      bad.push(withGroup(group.slice(1)), withGroup(`${group}0`), withGroup(`g${group.slice(1)}`), withGroup(`${group.slice(1)}z`), withGroup("-".repeat(group.length)));
    });
    for (const id of bad) expect([id, isUuid(id)]).toEqual([id, false]);
  });
});

describe("describeValue: how a refused value is quoted in the service's message", () => {
  it("quotes text whole up to 64 characters, and cuts it at 64 with an ellipsis beyond", () => {
    expect(describeValue("")).toBe('""');
    expect(describeValue("x".repeat(64))).toBe(`"${"x".repeat(64)}"`);
    expect(describeValue(`${"x".repeat(64)}y`)).toBe(`"${"x".repeat(64)}"…`);
    expect(describeValue('say "hi"')).toBe('"say \\"hi\\""');
  });

  it("names an array, null and an object instead of writing them out, and writes numbers and booleans", () => {
    expect([describeValue([1, 2]), describeValue(null), describeValue({ a: 1 }), describeValue(12.5), describeValue(false), describeValue(undefined)])
      .toEqual(["an array", "null", "an object", "12.5", "false", "undefined"]);
  });
});

describe("the longest id the service takes", () => {
  it(`takes accounted_id and paid_id of exactly ${MAX_ID_LENGTH} characters and refuses one more`, () => {
    for (const field of ["accounted_id", "paid_id"] as const) {
      const state = field === "accounted_id" ? "accounted" : "paid";
      expect(parsePatchBody({ state, [field]: "a".repeat(MAX_ID_LENGTH) })).toEqual({ ok: true, patch: { state, [field]: "a".repeat(MAX_ID_LENGTH) } });
      expect(parsePatchBody({ state, [field]: "a".repeat(MAX_ID_LENGTH + 1) })).toEqual({ ok: false, message: `${field} must be at most 255 characters.` });
    }
  });
});

describe("statesOf", () => {
  it("an allowance has no draft; an expense has every state", () => {
    expect(statesOf("allowance")).toEqual(["pending", "approved", "accounted", "paid", "rejected"]);
    expect(statesOf("expense")).toEqual(["draft", "pending", "approved", "accounted", "paid", "rejected"]);
    expect(statesOf("expense")).toBe(EXPENSE_STATES);
  });
});
