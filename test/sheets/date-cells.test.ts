/**
 * Dates and timestamps are read once per value by arithmetic (excel/values.ts): the cells and the tracked
 * paid_at must be exactly what the full ISO reading of the domain gives, for every form the service or a
 * person may write, and text that is not a date must stay text.
 */
import { normalizeTimestamp } from "../../src/domain";
import { canonical, serialToDate, serialToTimestamp, toCell } from "../../src/sheets";

const DAY_MS = 86_400_000;
/** The reading before it was made fast: the domain's normalisation, then Date.parse. */
const reference = (text: string) => {
  const utc = normalizeTimestamp(text);
  return utc === null ? null : { serial: Date.parse(utc) / DAY_MS + 25569, tracked: utc.replace(/\.\d{3}Z$/, "Z") };
};

const samples = [
  "2026-03-31T12:00:00Z", "2026-03-31T12:00:00.250Z", "2026-03-31T12:00:00.000Z", "2024-02-29T23:59:59Z", "1969-12-31T23:59:59.999Z",
  "1900-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "0024-05-01T10:00:00Z", "2000-02-29T00:00:00Z",
  // Other forms a person or a proxy may write: read the long way, same result.
  "2026-03-31T14:00:00+02:00", "2026-03-31 12:00:00Z", "2026-03-31t12:00:00z", "2026-03-31T12:00Z", " 2026-03-31T12:00:00Z",
  // Not timestamps: stay text.
  "2026-02-30T12:00:00Z", "2023-02-29T00:00:00Z", "2026-03-31T24:00:00Z", "2026-03-31T12:60:00Z", "0000-01-01T00:00:00Z",
  "2026-03-31T12:00:00", "2026-3-31T12:00:00Z", "2026-03-31T12:00:00.25Z", "2026-03-31T12:00:00.2500Z", "２026-03-31T12:00:00Z",
  "2026-03-31X12:00:00Z", "=2026-03-31T12:00:00Z", "",
];

describe("timestamp cells", () => {
  it.each(samples)("%j becomes the same cell and tracked value as the full reading gives", (text) => {
    const expected = reference(text);
    const cell = toCell("timestamp", text);
    if (expected === null) {
      expect(cell).toBe(text);
      expect(canonical("paid_at", text)).toBe(text.trim());
    } else {
      expect(cell).toBe(expected.serial);
      expect(canonical("paid_at", text)).toBe(expected.tracked);
    }
  });

  it("a paid_at read for its cell and then for its tracked value gives both right, whatever was read before", () => {
    expect(toCell("timestamp", "2026-11-02T09:15:00.400Z")).toBe(reference("2026-11-02T09:15:00.400Z")!.serial);
    expect(canonical("paid_at", "2026-11-02T09:15:00.400Z")).toBe("2026-11-02T09:15:00Z");
    expect(canonical("paid_at", "2026-11-03T09:15:00Z")).toBe("2026-11-03T09:15:00Z");
    expect(serialToTimestamp(toCell("timestamp", "2026-11-03T09:15:00Z") as number)).toBe("2026-11-03T09:15:00Z");
  });
});

describe("a loaded paid_at with milliseconds", () => {
  it.each([0, 1, 250, 499, 500, 501, 700, 999])("at .%i s reads back from its cell as the value it was loaded with: no edit", (ms) => {
    for (const base of ["2026-11-02T09:15:00", "1969-12-31T23:59:59", "1900-03-01T00:00:00", "9999-12-31T23:59:59"]) {
      const loaded = `${base}.${String(ms).padStart(3, "0")}Z`;
      const cell = toCell("timestamp", loaded);
      expect(typeof cell).toBe("number");
      // What the snapshot keeps and what the cell reads back as must be the same text, or Sync states sees an edit.
      expect(canonical("paid_at", cell)).toBe(canonical("paid_at", loaded));
      expect(canonical("paid_at", loaded)).toBe(`${base}Z`);
    }
  });
});

describe("date cells", () => {
  it.each(["2026-03-31", "2024-02-29", "1900-01-01", "1900-03-01", "9999-12-31", "2000-02-29"])("%s is a real date", (text) => {
    expect(toCell("date", text)).toBe(Date.parse(`${text}T00:00:00Z`) / DAY_MS + 25569);
    expect(serialToDate(toCell("date", text) as number)).toBe(text);
  });

  it.each(["2026-02-30", "2023-02-29", "1899-12-31", "2026-13-01", "2026-00-10", "2026-3-31", "20260331", "2026-03-31T00:00:00Z", "00123"])(
    "%s stays text", (text) => {
      expect(toCell("date", text)).toBe(text);
    },
  );
});
