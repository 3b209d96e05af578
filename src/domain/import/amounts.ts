/**
 * Amounts as files write them: "1,234.50", "1.234,50", "1 234,50", "-12.5", "(12.50)", "12.50-", "USD 12.50",
 * "12,50 €". Which character is the decimal mark is decided once per file from its values (never per value:
 * "1,234" is 1234 in one file and 1.234 in another), and asked when the values cannot decide.
 */

/** "dot": 1,234.50; "comma": 1.234,50. */
export type DecimalMark = "dot" | "comma";

/** An amount as written: `units` / 10^`scale` (12.50 is 1250 / 10^2), exact. */
export interface ExactAmount {
  units: number;
  scale: number;
}

const GROUPS: Record<DecimalMark, { group: string; decimal: string }> = {
  dot: { group: "[,' \\u00a0\\u202f]", decimal: "\\." },
  comma: { group: "[. \\u00a0\\u202f]", decimal: "," },
};
const SHAPES: Record<DecimalMark, RegExp> = Object.fromEntries(
  (Object.keys(GROUPS) as DecimalMark[]).map((mark) => {
    const { group, decimal } = GROUPS[mark];
    return [mark, new RegExp(`^(\\d{1,3}(?:${group}\\d{3})+|\\d+)(?:${decimal}(\\d+))?$`)];
  }),
) as Record<DecimalMark, RegExp>;

/** The value's text without currency, sign and spaces around; negative when written so. */
function bare(text: string): { body: string; negative: boolean } {
  let body = text.trim().replace(/^[A-Z]{3}\s*|\s*[A-Z]{3}$/i, "").replace(/[$€£¥]/g, "").trim();
  let negative = false;
  if (/^\(.*\)$/.test(body)) { negative = true; body = body.slice(1, -1).trim(); }
  if (/^[-\u2212]/.test(body)) { negative = !negative; body = body.slice(1).trim(); } else if (body.startsWith("+")) body = body.slice(1).trim();
  if (/-$/.test(body)) { negative = !negative; body = body.slice(0, -1).trim(); }
  return { body, negative };
}

/** The amount `text` holds under `mark`, or null when it is not an amount written that way. */
export function readAmount(text: string, mark: DecimalMark): ExactAmount | null {
  const { body, negative } = bare(text);
  const found = SHAPES[mark].exec(body);
  if (!found) return null;
  const whole = found[1].replace(/\D/g, "");
  const fraction = found[2] ?? "";
  const units = Number(whole + fraction);
  if (!Number.isSafeInteger(units)) return null;
  return { units: negative ? -units : units, scale: fraction.length };
}

/** The amount in minor units of a currency with `decimals` decimals (may hold a fraction for a figure finer than its currency). */
export function toMinor(amount: ExactAmount, decimals: number): number {
  const shift = decimals - amount.scale;
  return shift >= 0 ? amount.units * 10 ** shift : amount.units / 10 ** -shift;
}

/** A number (a cell's amount) in minor units, rounded to the billionth of a minor unit so that 0.1 + 0.2 compares as 0.3. */
export function numberToMinor(value: number, decimals: number): number {
  return Math.round(value * 10 ** decimals * 1e9) / 1e9;
}

/**
 * The file's decimal mark from sample values: the one under which every value reads, where the values say
 * which; null when they cannot (every value reads under both, and some differently: "1,234") or contradict.
 */
export function decideDecimalMark(samples: readonly string[]): { mark: DecimalMark | null; why: string } {
  let dot = 0;
  let comma = 0;
  let ambiguous: string | null = null;
  for (const sample of samples) {
    if (sample.trim() === "") continue;
    const a = readAmount(sample, "dot");
    const b = readAmount(sample, "comma");
    if (a && !b) dot++;
    else if (b && !a) comma++;
    else if (a && b && (a.units !== b.units || a.scale !== b.scale)) ambiguous ??= sample;
  }
  if (dot > 0 && comma > 0) return { mark: null, why: `the amounts are written both ways (${dot} with a decimal point, ${comma} with a decimal comma)` };
  if (dot > 0) return { mark: "dot", why: "" };
  if (comma > 0) return { mark: "comma", why: "" };
  if (ambiguous) return { mark: null, why: `"${ambiguous}" reads as ${ambiguous.replace(/[.,]/, "")} with a thousands separator or as a decimal` };
  return { mark: "dot", why: "" };
}
