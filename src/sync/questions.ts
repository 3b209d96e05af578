/**
 * Values a controller would question before they are sent: a Paid ID or an Accounted ID that looks like a date
 * or an amount (issue 24: Tab from State went to Accounted ID, and a user who expected Paid ID sent
 * `accounted_id: "PAY-NEW-1", paid_id: "2026-11-24 10:00"`). The service takes any text as an id, so such a
 * row is not invalid: Preview marks it "Check:", and Sync states sends it only when the user confirms it.
 * A plain number ("10023") is a common id and is not questioned.
 */
import type { StatePatch } from "../domain";

const DATE_SHAPES = [
  /^\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i, // 2026-11-24, 2026-11-24 10:00
  /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}( \d{1,2}:\d{2}(:\d{2})?)?$/, // 24/11/2026, 11-24-26 10:00
  /^\d{1,2}:\d{2}(:\d{2})?$/, // 10:00
];
const AMOUNT_SHAPES = [
  /^[-+]?[$€£¥]?\s?\d{1,3}(,\d{3})+(\.\d+)?$/, // 1,250.00, $1,250
  /^[-+]?[$€£¥]?\s?\d{1,3}(\.\d{3})+(,\d+)?$/, // 1.250,00
  /^[-+]?[$€£¥]?\s?\d+[.,]\d{1,2}$/, // 1250.00, 12,5
  /^[-+]?[$€£¥]\s?\d+$/, // $1250
];

const NAMES = { accounted_id: "Accounted ID", paid_id: "Paid ID" } as const;

/**
 * What looks wrong about one id's text, or null.
 * @internal questions tests check each id's question directly.
 */
export function idQuestion(field: keyof typeof NAMES, text: string): string | null {
  const value = text.trim();
  if (DATE_SHAPES.some((shape) => shape.test(value))) return `${NAMES[field]} "${text}" looks like a date: did you mean it for Paid at?`;
  if (AMOUNT_SHAPES.some((shape) => shape.test(value))) return `${NAMES[field]} "${text}" looks like an amount, not the id of an entry or a payment.`;
  return null;
}

/** The questions a PATCH raises (the ids it sends that look like a date or an amount), joined; null when none. */
export function patchQuestion(patch: StatePatch): string | null {
  const questions = (["accounted_id", "paid_id"] as const).flatMap((field) => {
    const value = patch[field];
    const question = value === undefined ? null : idQuestion(field, value);
    return question ? [question] : [];
  });
  return questions.length > 0 ? questions.join(" ") : null;
}
