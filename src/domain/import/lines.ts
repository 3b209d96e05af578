/**
 * A file's lines, read as the mapping says: only the mapped fields of each line are kept (a 50 MB export
 * becomes a few megabytes of lines), read chunk by chunk with progress. A line that cannot be read is listed
 * with why; a file where most cannot is refused whole, so that a wrong choice changes nothing.
 */
import { readAmount, type ExactAmount } from "./amounts";
import { CsvReader, type CsvRecord } from "./csv";
import { readDate } from "./dates";
import { ChunkDecoder, detectEncoding } from "./decode";
import { ImportFileError } from "./errors";
import { FIELD_LABELS, fileSignature, type FileMapping } from "./mapping";

export interface ImportLine {
  /** Line of the file (the header is line 1). */
  line: number;
  reference: string;
  amount: ExactAmount | null;
  currency: string;
  /** "YYYY-MM-DD", or null when the file has no date column. */
  day: string | null;
  /** The payment's instant when the file gave a time with its zone. */
  instant?: string;
  person: string;
  value: string;
}

/** @internal matching-rules.test.ts types its expected problems. */
export interface LineProblem {
  line: number;
  why: string;
}

export interface ReadLines {
  lines: ImportLine[];
  unreadable: LineProblem[];
}

/** Converts the file's records (the header first) to lines; reused by a pasted range. */
class LineReader {
  private at: Partial<Record<keyof FileMapping["columns"], number>> = {};
  private header: string[] | null = null;
  readonly result: ReadLines = { lines: [], unreadable: [] };

  constructor(private readonly mapping: FileMapping, private readonly expectedHeader: readonly string[]) {}

  take(record: CsvRecord): void {
    if (!this.header) {
      this.header = record.fields.map((h) => h.trim());
      if (fileSignature(this.header) !== fileSignature(this.expectedHeader)) {
        throw new ImportFileError("The file's header is not the one its first lines showed: choose the file again.");
      }
      for (const [field, column] of Object.entries(this.mapping.columns)) this.at[field as keyof FileMapping["columns"]] = this.header.indexOf(column);
      return;
    }
    const line = this.toLine(record);
    if ("why" in line) this.result.unreadable.push(line);
    else this.result.lines.push(line);
  }

  private toLine(record: CsvRecord): ImportLine | LineProblem {
    const labels = FIELD_LABELS[this.mapping.kind];
    if (this.header && record.fields.length < this.header.length) {
      return { line: record.line, why: `it has ${record.fields.length} fields where the header has ${this.header.length}` };
    }
    const get = (field: keyof FileMapping["columns"]) => (this.at[field] === undefined ? "" : (record.fields[this.at[field]!] ?? "").trim());
    const amountText = get("amount");
    const amount = amountText === "" ? null : readAmount(amountText, this.mapping.decimal);
    if (amountText !== "" && !amount) return { line: record.line, why: `${labels.amount} "${amountText}" is not an amount written with a decimal ${this.mapping.decimal === "dot" ? "point" : "comma"}` };
    const dateText = get("date");
    const date = dateText === "" ? null : readDate(dateText, this.mapping.dateOrder);
    if (dateText !== "" && !date) return { line: record.line, why: `${labels.date} "${dateText}" is not a date${this.mapping.dateOrder ? ` written ${this.mapping.dateOrder === "dmy" ? "day" : "month"} first` : ""}` };
    const value = get("value");
    if (value === "") return { line: record.line, why: `it has no ${labels.value}` };
    return {
      line: record.line, reference: get("reference"), amount, currency: get("currency").toUpperCase(), day: date?.day ?? null,
      ...(date?.instant ? { instant: date.instant } : {}), person: get("person"), value,
    };
  }

  /** The lines read; throws when most of the file could not be read (a wrong mapping, decimal mark or date order). */
  finish(): ReadLines {
    const { lines, unreadable } = this.result;
    if (lines.length === 0 && unreadable.length === 0) throw new ImportFileError("This file has a header and no lines: there is nothing to import.");
    if (unreadable.length > lines.length) {
      const first = unreadable.slice(0, 3).map((p) => `line ${p.line}: ${p.why}`).join("; ");
      throw new ImportFileError(`${unreadable.length.toLocaleString("en-US")} of ${(lines.length + unreadable.length).toLocaleString("en-US")} lines cannot be read (${first}). Check the columns, the decimal mark and the date order chosen; nothing was changed.`);
    }
    return this.result;
  }
}

/**
 * Reads a whole file from its chunks (a File's stream), in order, with `onProgress(bytesRead)`; the encoding is
 * decided from the first chunk. Throws ImportFileError for a file that cannot be read.
 */
export async function readImportFile(
  chunks: AsyncIterable<Uint8Array>, delimiter: string, mapping: FileMapping, header: readonly string[], onProgress?: (bytes: number) => void,
): Promise<ReadLines> {
  let decoder: ChunkDecoder | null = null;
  const csv = new CsvReader(delimiter);
  const reader = new LineReader(mapping, header);
  let bytes = 0;
  for await (const chunk of chunks) {
    decoder ??= new ChunkDecoder(detectEncoding(chunk.subarray(0, 65_536)));
    for (const record of csv.push(decoder.decode(chunk))) reader.take(record);
    bytes += chunk.length;
    onProgress?.(bytes);
  }
  if (!decoder) throw new ImportFileError("This file is empty.");
  for (const record of [...csv.push(decoder.end()), ...csv.end()]) reader.take(record);
  return reader.finish();
}
