/**
 * The tracked values' one reading (tracked-values.ts), stated on its own: empty in any form is "", a state in
 * any case is the service's lower case, a record's nulls are "" whether or not it passed the API's schema.
 * Pure.
 */
import { canonical, canonicalTimestamp, trackedOf, trackedOfUnchecked } from "../../src/sheets/edits/tracked-values";

describe("empty is empty in every form", () => {
  it.each([null, undefined, "", "   ", "\t"])("paid_at %p reads as no date", (value) => {
    expect(canonicalTimestamp(value)).toBe("");
    expect(canonical("paid_at", value)).toBe("");
  });

  it.each(["state", "accounted_id", "paid_id"] as const)("%s null, undefined or blank reads as empty", (key) => {
    expect([null, undefined, "", "  "].map((v) => canonical(key, v))).toEqual(["", "", "", ""]);
  });
});

describe("a state is the service's lower case; an id keeps its case", () => {
  it("from a cell", () => {
    expect(canonical("state", " Approved ")).toBe("approved");
    expect(canonical("accounted_id", " Acc-1 ")).toBe("Acc-1");
    expect(canonical("paid_id", "PAY-x")).toBe("PAY-x");
  });

  it("from a record the service sent", () => {
    expect(trackedOf({ state: "APPROVED", accounted_id: "Acc-1", paid_id: null, paid_at: null })).toEqual({ state: "approved", accounted_id: "Acc-1", paid_id: "", paid_at: "" });
    expect(trackedOf({ state: "paid", accounted_id: null, paid_id: "P-1", paid_at: "2026-03-31T12:00:00.250Z" })).toEqual({ state: "paid", accounted_id: "", paid_id: "P-1", paid_at: "2026-03-31T12:00:00Z" });
  });

  it("from a record that did not match the API: nulls and absent fields are empty, not the word null", () => {
    expect(trackedOfUnchecked({ state: "Approved", accounted_id: null, paid_at: undefined })).toEqual({ state: "approved", accounted_id: "", paid_id: "", paid_at: "" });
  });
});
