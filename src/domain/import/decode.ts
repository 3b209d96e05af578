/**
 * A file's bytes to text, in chunks, without ever holding the whole file: UTF-8 (with or without its BOM) when
 * the bytes are valid UTF-8, else Windows-1252 (what Excel on Windows saves as "CSV" in western locales). A
 * workbook, a UTF-16 file or a binary one is refused with what to do instead.
 */
import { ImportFileError } from "./errors";

export type FileEncoding = "utf-8" | "windows-1252";

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/** The encoding of a file from its first bytes (a sample of some kilobytes); throws ImportFileError for what is no CSV. */
export function detectEncoding(sample: Uint8Array): FileEncoding {
  if (startsWith(sample, [0x50, 0x4b, 0x03, 0x04])) {
    throw new ImportFileError("This is an Excel workbook (.xlsx), not a CSV file: open it in Excel and save it as CSV UTF-8, or paste its range instead.");
  }
  if (startsWith(sample, [0xff, 0xfe]) || startsWith(sample, [0xfe, 0xff])) {
    throw new ImportFileError("This file is saved as UTF-16 (\"Unicode text\"): save it as CSV UTF-8 and choose it again.");
  }
  if (sample.includes(0)) throw new ImportFileError("This file holds binary data, not text: choose the CSV export of the bank or the ERP.");
  try {
    // stream: true leaves a character cut by the sample's end for later, instead of calling it invalid.
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
    return "utf-8";
  } catch {
    return "windows-1252";
  }
}

/** Decodes chunks in order (a UTF-8 BOM dropped); a UTF-8 file with invalid bytes further on is refused, naming the byte. */
export class ChunkDecoder {
  private readonly decoder: TextDecoder;
  private offset = 0;

  constructor(readonly encoding: FileEncoding) {
    this.decoder = new TextDecoder(encoding, { fatal: encoding === "utf-8", ignoreBOM: false });
  }

  /** The text of the next chunk (the end of a character cut by the chunk waits for the next one). */
  decode(chunk: Uint8Array): string {
    try {
      const text = this.decoder.decode(chunk, { stream: true });
      this.offset += chunk.length;
      return text;
    } catch {
      throw new ImportFileError(
        `This file is not valid UTF-8 after byte ${this.offset.toLocaleString("en-US")} although it starts as UTF-8 (mixed encodings?): save it again as CSV UTF-8.`,
      );
    }
  }

  /** What is left at the end of the file. */
  end(): string {
    try {
      return this.decoder.decode();
    } catch {
      throw new ImportFileError("This file ends in the middle of a UTF-8 character: it was cut short; export it again.");
    }
  }
}
