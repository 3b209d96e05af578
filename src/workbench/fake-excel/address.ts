/** A1 addresses: "B3", "A1:C10", "'My sheet'!A1:B2". Rows and columns are 0-based inside. */
import { FakeExcelError } from "./errors";

export interface Area {
  row: number;
  column: number;
  rowCount: number;
  columnCount: number;
}

export function columnLetters(column: number): string {
  let n = column + 1;
  let out = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Parses an address without its sheet part; throws on anything else. */
export function parseArea(address: string): Area {
  const local = address.includes("!") ? address.slice(address.lastIndexOf("!") + 1) : address;
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(local.trim());
  if (!m) throw new FakeExcelError("InvalidArgument", `not an A1 address: ${address}`);
  const c0 = columnIndex(m[1]);
  const r0 = Number(m[2]) - 1;
  const c1 = m[3] ? columnIndex(m[3]) : c0;
  const r1 = m[4] ? Number(m[4]) - 1 : r0;
  return { row: Math.min(r0, r1), column: Math.min(c0, c1), rowCount: Math.abs(r1 - r0) + 1, columnCount: Math.abs(c1 - c0) + 1 };
}

export function formatArea(area: Area, sheet?: string): string {
  const start = `${columnLetters(area.column)}${area.row + 1}`;
  const end = `${columnLetters(area.column + area.columnCount - 1)}${area.row + area.rowCount}`;
  const local = area.rowCount === 1 && area.columnCount === 1 ? start : `${start}:${end}`;
  if (!sheet) return local;
  return /^[A-Za-z0-9_]+$/.test(sheet) ? `${sheet}!${local}` : `'${sheet.replace(/'/g, "''")}'!${local}`;
}
