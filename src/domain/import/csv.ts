/**
 * An incremental CSV reader (RFC 4180 with the delimiters people's exports use): fed text in chunks of any size,
 * it hands back each complete record with the line of the file it starts on, so memory holds one record at a
 * time. Quoted fields may hold the delimiter, quotes ("") and line breaks.
 */
import { ImportFileError } from "./errors";

export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

/** Longest field taken: a file whose quote never closes would otherwise be read whole into one field. */
const MAX_FIELD = 100_000;

type Mode = "start" | "plain" | "quoted" | "quote-in-quoted";

export class CsvReader {
  private field = "";
  private fields: string[] = [];
  private mode: Mode = "start";
  private line = 1;
  private recordLine = 1;
  private pendingCr = false;

  constructor(private readonly delimiter: string) {}

  /** The records completed by this chunk, in order. */
  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.pendingCr) {
        this.pendingCr = false;
        if (c === "\n") continue;
      }
      if (this.mode === "quoted") {
        if (c === '"') this.mode = "quote-in-quoted";
        else {
          if (c === "\n") this.line++;
          this.add(c);
        }
        continue;
      }
      if (this.mode === "quote-in-quoted") {
        // "" inside quotes is one quote; any other character ends the quoted part (the chunk may split the pair).
        if (c === '"') { this.add(c); this.mode = "quoted"; continue; }
        this.mode = "plain";
      }
      if (c === '"' && this.mode === "start") { this.mode = "quoted"; continue; }
      if (c === this.delimiter) { this.endField(); continue; }
      if (c === "\n" || c === "\r") {
        this.pendingCr = c === "\r";
        this.endRecord(out);
        this.line++;
        this.recordLine = this.line;
        continue;
      }
      this.mode = "plain";
      this.add(c);
    }
    return out;
  }

  /** The last record, when the file does not end with a line break. */
  end(): CsvRecord[] {
    if (this.mode === "quoted") throw new ImportFileError(`A quote opened on line ${this.recordLine} is never closed: the file is cut short or not a CSV file.`);
    const out: CsvRecord[] = [];
    this.endRecord(out);
    return out;
  }

  private add(c: string): void {
    this.field += c;
    if (this.field.length > MAX_FIELD) {
      throw new ImportFileError(`Line ${this.recordLine} has a field longer than ${MAX_FIELD.toLocaleString("en-US")} characters: this is not a bank or ERP export (or a quote is not closed).`);
    }
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = "";
    this.mode = "start";
  }

  private endRecord(out: CsvRecord[]): void {
    this.fields.push(this.field);
    // An empty line, or one of delimiters only (";;;", a spreadsheet's export of an empty row), is skipped.
    if (this.fields.some((f) => f.trim() !== "")) out.push({ line: this.recordLine, fields: this.fields });
    this.fields = [];
    this.field = "";
    this.mode = "start";
  }
}

/** Every record of a whole text (a pasted range, a sample). */
export function parseCsv(text: string, delimiter: string): CsvRecord[] {
  const reader = new CsvReader(delimiter);
  return [...reader.push(text), ...reader.end()];
}
