/**
 * The fast checks of src/domain/timestamps.ts against the reference: isValidTimestamp must answer exactly
 * as `normalizeTimestamp(value) !== null`, and isIsoDate exactly as its former regex version, over a corpus
 * of hand-picked edges, a grid of dates × clocks × zones, and strings from a seeded generator.
 */
import { isIsoDate, isValidTimestamp, normalizeTimestamp } from "../../src/domain";
import { Random } from "../../src/sandbox/random";

/** The same strings on every run (the sandbox's seeded PRNG). */
function seeded(seed: number): () => number {
  const random = new Random(seed, "timestamps");
  return () => random.next();
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * The strings on which the two checks disagree (none expected): how many, and the first five with both answers.
 * A broken rule disagrees on tens of thousands; listing them all would make a failure megabytes long (and
 * StrykerJS's report of this file, which keeps every failure message, longer than a string can be).
 */
function disagreements(corpus: Iterable<string>): { count: number; first: { value: string; fast: boolean; reference: boolean }[] } {
  const first: { value: string; fast: boolean; reference: boolean }[] = [];
  let count = 0;
  for (const value of corpus) {
    const fast = isValidTimestamp(value);
    const reference = normalizeTimestamp(value) !== null;
    if (fast === reference) continue;
    count++;
    if (first.length < 5) first.push({ value, fast, reference });
  }
  return { count, first };
}

const NONE = { count: 0, first: [] };

/** Answers of the reference over a corpus: a corpus all of one answer would prove nothing. */
function tally(corpus: string[]): { accepted: number; refused: number } {
  const accepted = corpus.filter((v) => normalizeTimestamp(v) !== null).length;
  return { accepted, refused: corpus.length - accepted };
}

const ZONES = [
  "Z", "z", "", "+00:00", "-00:00", "+0000", "-0000", "+00:01", "-00:01", "+01:00", "-01:00", "+05:30", "+0530", "-0530",
  "+23:59", "-23:59", "+2359", "-2359", "+24:00", "-24:00", "+23:60", "-23:60", "+12:60", "+05:3", "+5:30", "+05:300",
  "+05::30", "05:30", "UTC", "Zz", "ZZ", " Z", "+05 30", "−05:00",
];
const CLOCKS = [
  "00:00", "00:00:00", "12:00", "23:59", "23:59:59", "23:59:59.999", "23:59:59.9999", "00:00:00.001", "00:00:00.0005",
  "24:00", "24:00:00", "23:60", "23:59:60", "12:00:61", "1:00", "12:0", "12:00:0", "12:00:00.", "12:00.5",
  // Fractions of 1 to 9 digits, then 10 (refused).
  ...Array.from({ length: 10 }, (_, i) => `12:34:56.${"1234567890".slice(0, i + 1)}`),
];
const SEPARATORS = ["T", "t", " ", "_"];

describe("isValidTimestamp answers as normalizeTimestamp(value) !== null", () => {
  it("at the edges: years 0000, 0001, 9999 and 10000 with offsets either way", () => {
    const corpus: string[] = [];
    const dates = [
      "0000-01-01", "0000-02-29", "0000-12-31", "0001-01-01", "0001-01-02", "0001-12-31", "0002-01-01",
      "9998-12-31", "9999-01-01", "9999-12-30", "9999-12-31", "10000-01-01", "-0001-12-31", "+9999-12-31",
    ];
    const clocks = ["00:00", "00:00:00", "00:00:00.000", "00:00:00.0009", "00:01", "00:30", "23:29", "23:30", "23:58:59.999", "23:59",
      "23:59:00", "23:59:59", "23:59:59.998", "23:59:59.999", "23:59:59.9999", "23:59:59.999999999", "12:00"];
    const offsets = ["Z", "z"];
    for (let m = 0; m < 24 * 60; m += 7) {
      for (const sign of ["+", "-"]) offsets.push(`${sign}${pad(Math.floor(m / 60), 2)}:${pad(m % 60, 2)}`);
    }
    offsets.push("+23:59", "-23:59", "+2359", "-2359", "+00:00", "-00:00", "+00:01", "-00:01", "+24:00", "-24:00");
    for (const date of dates) for (const clock of clocks) for (const zone of offsets) corpus.push(`${date}T${clock}${zone}`);
    expect(disagreements(corpus)).toEqual(NONE);
    const { accepted, refused } = tally(corpus);
    expect(accepted).toBeGreaterThan(5000);
    expect(refused).toBeGreaterThan(5000);
    // The exact edges themselves.
    expect(isValidTimestamp("0001-01-01T00:00:00Z")).toBe(true);
    expect(isValidTimestamp("0001-01-01T00:00:00+00:01")).toBe(false);
    expect(isValidTimestamp("0000-12-31T23:59:59.999Z")).toBe(false);
    expect(isValidTimestamp("0000-12-31T23:59-00:01")).toBe(true);
    expect(isValidTimestamp("9999-12-31T23:59:59.999Z")).toBe(true);
    expect(isValidTimestamp("9999-12-31T23:59:59.9999Z")).toBe(true);
    expect(isValidTimestamp("9999-12-31T23:59:59.999-00:01")).toBe(false);
    expect(isValidTimestamp("9999-12-31T00:00:00-23:59")).toBe(true);
    expect(isValidTimestamp("9999-12-31T00:01:00-23:59")).toBe(false);
  });

  it("over a grid of dates (Feb 29 in leap, common and century years), clocks, separators and zones", () => {
    const corpus: string[] = [];
    const years = ["0000", "0004", "0100", "0400", "1900", "2000", "2023", "2024", "2025", "2100", "2400", "9996", "9999"];
    const monthDays = ["01-01", "01-31", "01-32", "02-28", "02-29", "02-30", "04-30", "04-31", "06-31", "09-31", "11-31", "12-31",
      "12-32", "00-10", "13-01", "02-00", "1-01", "01-1", "99-99"];
    for (const y of years) {
      for (const md of monthDays) {
        for (const sep of SEPARATORS) {
          for (const clock of CLOCKS) for (const zone of ZONES) corpus.push(`${y}-${md}${sep}${clock}${zone}`);
        }
      }
    }
    expect(disagreements(corpus)).toEqual(NONE);
    const { accepted, refused } = tally(corpus);
    expect(accepted).toBeGreaterThan(10_000);
    expect(refused).toBeGreaterThan(10_000);
  });

  it("with spaces and line ends around it, a missing zone, lowercase letters and other text", () => {
    const base = ["2026-03-31T12:00:00Z", "2026-03-31t12:00:00z", "2026-03-31 12:00+05:30", "0001-01-01T00:00Z", "9999-12-31T23:59:59.999Z"];
    const around = ["", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\ufeff", "\u2028", "\u3000", "\u200b", "x", "0"];
    const corpus: string[] = [];
    for (const b of base) for (const before of around) for (const after of around) corpus.push(`${before}${b}${after}`);
    corpus.push(
      "", " ", "Z", "T", "yesterday", "2026-03-31", "2026-03-31T12:00:00", "2026-03-31T12:00:00Zx", "2026-03-31T12:00:00+02",
      "2026-03-31T12:00:00+02:00:00", "20260331T120000Z", "2026-03-31T12:00:00.Z", "2026-03-31T12:00:00,5Z", "２０２６-03-31T12:00Z",
      "2026-03-31T12:00:00\u0000Z", "2026-03-31T12:00:00Z\u0000", "2026-03-31T12:00:00Zz", "2026-03-31T12:00:00ZT",
    );
    expect(disagreements(corpus)).toEqual(NONE);
    expect(isValidTimestamp(" 2026-03-31T12:00:00Z\n")).toBe(true);
    expect(isValidTimestamp("2026-03-31T12:00:00")).toBe(false);
  });

  it("over 60,000 strings from a seeded generator: valid ones, mutated ones and noise", () => {
    const random = seeded(20261123);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)];
    const ALPHABET = "0123456789-:.+TtZz \u00a0\nx\u2028";
    const year = () => (random() < 0.3 ? pick([0, 1, 2, 9998, 9999]) : int(10000));
    const zone = () => {
      const r = random();
      if (r < 0.2) return pick(["Z", "z"]);
      if (r < 0.25) return "";
      const sign = pick(["+", "-"]);
      const colon = random() < 0.8 ? ":" : "";
      return `${sign}${pad(int(r < 0.9 ? 24 : 30), 2)}${colon}${pad(int(r < 0.95 ? 60 : 70), 2)}`;
    };
    const dateTime = () => {
      const seconds = random() < 0.7 ? `:${pad(int(random() < 0.9 ? 60 : 62), 2)}` : "";
      const fraction = seconds && random() < 0.5 ? `.${Array.from({ length: 1 + int(10) }, () => int(10)).join("")}` : "";
      return `${pad(year(), 4)}-${pad(1 + int(random() < 0.9 ? 12 : 13), 2)}-${pad(1 + int(random() < 0.8 ? 28 : 32), 2)}` +
        `${pick(["T", "T", "T", "t", " "])}${pad(int(random() < 0.95 ? 24 : 25), 2)}:${pad(int(random() < 0.95 ? 60 : 61), 2)}` +
        `${seconds}${fraction}${zone()}`;
    };
    const mutate = (value: string) => {
      const chars = [...value];
      for (let k = 1 + int(2); k > 0; k--) {
        const at = int(chars.length + 1);
        const r = random();
        if (r < 0.33) chars.splice(at, 1);
        else if (r < 0.66) chars.splice(at, 1, pick([...ALPHABET]));
        else chars.splice(at, 0, pick([...ALPHABET]));
      }
      return chars.join("");
    };
    const corpus: string[] = [];
    for (let i = 0; i < 30_000; i++) corpus.push(dateTime());
    for (let i = 0; i < 20_000; i++) corpus.push(mutate(dateTime()));
    for (let i = 0; i < 10_000; i++) corpus.push(Array.from({ length: int(40) }, () => pick([...ALPHABET])).join(""));
    expect(disagreements(corpus)).toEqual(NONE);
    const { accepted, refused } = tally(corpus);
    expect(accepted).toBeGreaterThan(10_000);
    expect(refused).toBeGreaterThan(10_000);
  });

  it("every UTC instant of an offset near the edges, minute by minute across the offsets", () => {
    // Year 0000's last day and 0001's first, 9999's last: each local time with every offset whose sum crosses the edge.
    const corpus: string[] = [];
    for (const date of ["0000-12-31", "0001-01-01", "9999-12-31"]) {
      for (let local = 0; local < 24 * 60; local += 13) {
        for (const offset of [-1439, -1438, -721, -1, 0, 1, 720, 1438, 1439]) {
          const sign = offset < 0 ? "-" : "+";
          const abs = Math.abs(offset);
          corpus.push(`${date}T${pad(Math.floor(local / 60), 2)}:${pad(local % 60, 2)}${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`);
        }
      }
    }
    expect(disagreements(corpus)).toEqual(NONE);
  });
});

/** isIsoDate as it was (a regex and Number), the reference for the character-code version. */
function isIsoDateBefore(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  const days = month === 2 ? ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

describe("isIsoDate answers as its regex version did", () => {
  it("over every day of leap, common and century years, the impossible ones and noise", () => {
    const random = seeded(7);
    const corpus: string[] = [];
    for (const y of ["0000", "0001", "1900", "2000", "2023", "2024", "2100", "9999"]) {
      for (let m = 0; m <= 13; m++) for (let d = 0; d <= 32; d++) corpus.push(`${y}-${pad(m, 2)}-${pad(d, 2)}`);
    }
    corpus.push("", "2026-03-31 ", " 2026-03-31", "2026-03-31\n", "2026-3-31", "26-03-31", "20260-03-31", "2026/03/31", "2026-03-31T00:00:00Z", "２０２６-03-31");
    const ALPHABET = "0123456789-/ x\n";
    for (let i = 0; i < 20_000; i++) {
      const valid = `${pad(Math.floor(random() * 10000), 4)}-${pad(Math.floor(random() * 14), 2)}-${pad(Math.floor(random() * 33), 2)}`;
      const chars = [...valid];
      if (random() < 0.5) chars.splice(Math.floor(random() * 11), random() < 0.5 ? 1 : 0, ALPHABET[Math.floor(random() * ALPHABET.length)]);
      corpus.push(chars.join(""));
    }
    const wrong = corpus.filter((v) => isIsoDate(v) !== isIsoDateBefore(v));
    expect({ count: wrong.length, first: wrong.slice(0, 5) }).toEqual(NONE);
    expect(corpus.filter(isIsoDateBefore).length).toBeGreaterThan(5000);
  });
});
