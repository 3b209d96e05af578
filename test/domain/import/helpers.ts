/** Records of the demo data as a loaded table shows them to the matcher, and the reading of a generated file. */
import {
  decideDateOrder, decideDecimalMark, guessColumns, matchLines, numberToMinor, personKey, readImportFile, sniffShape,
  type FileMapping, type ImportKind, type ImportRecord, type MatchReport, type ReadLines,
} from "../../../src/domain/import";
import { dayNumber } from "../../../src/domain/import/dates";
import { fileRecords, type FileResource } from "../../../src/sandbox/import-records";
import type { SandboxData } from "../../../src/sandbox/model";
import { DECIMALS } from "../../../src/sandbox/demo-money";

export const WINDOW = { before: 30, after: 60 };
const decimals = (code: string) => DECIMALS[code] ?? 2;

/** The subsidiary's records as the table holds them: number, person (name, email, id), amount, dates, tracked values. */
export function tableRecords(data: SandboxData, resource: FileResource, subsidiaryId: string): ImportRecord[] {
  return fileRecords(data, resource, subsidiaryId).map((r, row) => ({
    row, id: r.id, label: `${resource === "expense" ? "Expense" : "Allowance"} ${r.number}`, number: String(r.number),
    persons: [personKey(`${r.person.first_name} ${r.person.last_name}`), personKey(r.person.email), personKey(r.person.id)],
    minor: numberToMinor(r.amount, decimals(r.currency)), currency: r.currency, from: dayNumber(r.first), to: dayNumber(r.last),
    state: r.state, accounted_id: r.accounted_id ?? "", paid_id: r.paid_id ?? "", paid_at: "",
  }));
}

/** Chunks of a file's bytes, as a File's stream gives them. */
export async function* chunksOf(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Reads a file as the taskpane does, with the guessed columns and the decided decimal mark and date order. */
export async function readBytes(bytes: Uint8Array, kind: ImportKind): Promise<ReadLines> {
  const sample = new TextDecoder(bytes[0] === 0xef ? "utf-8" : "windows-1252").decode(bytes.subarray(0, 64 * 1024));
  const shape = sniffShape(sample.slice(0, sample.lastIndexOf("\n")));
  const columns = guessColumns(shape.header);
  const at = (header?: string) => (header ? shape.header.indexOf(header) : -1);
  const decimal = decideDecimalMark(shape.rows.map((r) => r.fields[at(columns.amount)] ?? "")).mark;
  const dateOrder = decideDateOrder(shape.rows.map((r) => r.fields[at(columns.date)] ?? "")).order;
  if (!decimal) throw new TypeError("the sample does not decide the decimal mark");
  const mapping: FileMapping = { kind, columns, decimal, dateOrder };
  return readImportFile(chunksOf(bytes), shape.delimiter, mapping, shape.header);
}

/** Reads a file as the taskpane does and matches it. */
export async function importBytes(bytes: Uint8Array, kind: ImportKind, records: ImportRecord[], resource: FileResource, fileName = `${kind} file`): Promise<MatchReport> {
  const read = await readBytes(bytes, kind);
  return matchLines(records, read, { kind, records: resource, fileName, window: WINDOW, decimals });
}
