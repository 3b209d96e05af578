/**
 * Which ids Preview questions, at the edges of each shape: a whole date or time (any spelling Excel or a
 * person writes), a whole amount (thousands separators, decimals, a currency sign), and nothing that only
 * contains one. The question quotes the id as typed.
 */
import { idQuestion, patchQuestion } from "../../src/sync/questions";

const date = (field: "Paid ID" | "Accounted ID", text: string) => `${field} "${text}" looks like a date: did you mean it for Paid at?`;
const amount = (field: "Paid ID" | "Accounted ID", text: string) => `${field} "${text}" looks like an amount, not the id of an entry or a payment.`;

it.each([
  "2026-1-5", "2026-11-24 10:00:30", "2026-11-24T10:00:30.5", "2026-11-24z", "2026-11-24T10:00+01:00", "2026-11-24T10:00-0100",
  "24.11.2026", "1-2-26", "24/11/26 10:00:30", "10:00", "9:30:15", " 2026-11-24 ",
])("%j is a date", (text) => {
  expect(idQuestion("paid_id", text)).toBe(date("Paid ID", text));
});

it.each([
  "€ 1,250", "+1,250,000.5", "1.250.000,5", "1.250,75", "£1.250", "12,5", "¥100.5", "€ 1250", "+$1250", "-$1250", "$ 1,250.00", " 1250.00 ", "12.345",
])("%j is an amount", (text) => {
  expect(idQuestion("accounted_id", text)).toBe(amount("Accounted ID", text));
});

it.each([
  "ACC 2026-11-24", "2026-11-24 batch", "20261-11-24", "2026-11-24 10", "No 24/11/2026", "24/11/2026 batch", "24/11/2026 10", "Ref 10:00", "10:00 am",
  "1,2500", "1,250 EUR", "EUR 1,250", "1250", "1.2500", "1.25.", "$1250x", "1250$", "x1,250", "1,250.", "10:0", "2026-11-24T",
])("%j is an id", (text) => {
  expect(idQuestion("paid_id", text)).toBeNull();
});

it("a PATCH with both ids questioned asks both, Accounted ID first; with neither, nothing", () => {
  expect(patchQuestion({ state: "paid", paid_id: "10:00", accounted_id: "1,250" })).toBe(`${amount("Accounted ID", "1,250")} ${date("Paid ID", "10:00")}`);
  expect(patchQuestion({ state: "paid", paid_id: "PAY-1" })).toBeNull();
  expect(patchQuestion({ state: "accounted" })).toBeNull();
});
