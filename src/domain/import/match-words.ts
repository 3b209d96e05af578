/** Sentences of the matcher, and the reversals it sets apart before matching. */
import type { ImportLine } from "./lines";

/** A minor-unit amount as a person reads it: 12050 with 2 decimals is "120.50". */
export function amountWords(minor: number, decimals: number): string {
  const value = minor / 10 ** decimals;
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: Math.max(decimals, 6) });
}

/**
 * Lines that pay nothing: a negative amount (a reversal or a refund), and the payment it reverses (the same
 * payment id and amount), each with why. Line number -> why.
 */
export function reversals(lines: readonly ImportLine[]): Map<number, string> {
  const out = new Map<number, string>();
  const paid = new Map<string, ImportLine[]>();
  for (const line of lines) if (line.amount && line.amount.units > 0) paid.set(line.value, [...(paid.get(line.value) ?? []), line]);
  for (const line of lines) {
    if (!line.amount || line.amount.units >= 0) continue;
    const amount = line.amount;
    const undone = (paid.get(line.value) ?? []).find((p) => !out.has(p.line) && p.amount!.units === -amount.units && p.amount!.scale === amount.scale);
    if (undone) {
      out.set(undone.line, `payment ${line.value} was reversed by line ${line.line}`);
      out.set(line.line, `it reverses line ${undone.line} (payment ${line.value}): neither pays anything`);
    } else out.set(line.line, "its amount is negative (a reversal or a refund): it pays nothing");
  }
  return out;
}
