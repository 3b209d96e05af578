/** The shape of a file from its first lines: delimiter, header, and sample rows to decide its amounts and dates. */
import { parseCsv, type CsvRecord } from "./csv";
import { ImportFileError } from "./errors";

const DELIMITERS = [",", ";", "\t", "|"] as const;

export interface FileShape {
  delimiter: string;
  header: string[];
  /** The sample's rows after the header. */
  rows: CsvRecord[];
}

/** How many of the first rows have the header's count of fields, with this delimiter. */
function fit(records: CsvRecord[]): number {
  if (records.length === 0 || records[0].fields.length < 2) return 0;
  const width = records[0].fields.length;
  return records.filter((r) => r.fields.length === width).length * width;
}

/**
 * The delimiter under which the first lines have most columns, consistently; the header (first record). `text`
 * holds whole lines (a sample cut at a line break). Throws ImportFileError for one column, or no data line.
 */
export function sniffShape(text: string): FileShape {
  const lines = text.split(/\r\n|\n|\r/).slice(0, 50).join("\n");
  let best: { delimiter: string; score: number } = { delimiter: ",", score: 0 };
  for (const delimiter of DELIMITERS) {
    let score = 0;
    try {
      score = fit(parseCsv(lines, delimiter));
    } catch {
      score = 0;
    }
    if (score > best.score) best = { delimiter, score };
  }
  if (best.score === 0) {
    throw new ImportFileError("This file has one column only: its fields are not separated by a comma, a semicolon, a tab or a vertical bar. Export it as CSV.");
  }
  const records = parseCsv(text, best.delimiter);
  const header = records[0].fields.map((h) => h.trim());
  if (records.length < 2) throw new ImportFileError("This file has a header and no lines: there is nothing to import.");
  const blank = header.findIndex((h) => h === "");
  if (blank >= 0) throw new ImportFileError(`Column ${blank + 1} of the header has no name: the first line of the file must name every column.`);
  return { delimiter: best.delimiter, header, rows: records.slice(1) };
}
