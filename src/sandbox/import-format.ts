/**
 * How banks and ERPs write their exports: a Chilean bank's (Windows-1252, `;`, decimal comma, day first), an
 * ERP's (UTF-8 with BOM, `,`, thousands separators, month first). The bytes are what a person would choose.
 */
import { DECIMALS } from "./demo-money";

export interface FileFormat {
  delimiter: string;
  decimal: "." | ",";
  thousands: string;
  /** How a YYYY-MM-DD is written. */
  date: (day: string) => string;
  encoding: "utf-8-bom" | "windows-1252";
}

export const BANK_FORMAT: FileFormat = {
  delimiter: ";", decimal: ",", thousands: ".", encoding: "windows-1252", date: (d) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`,
};
export const ERP_FORMAT: FileFormat = {
  delimiter: ",", decimal: ".", thousands: ",", encoding: "utf-8-bom", date: (d) => `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}`,
};

/** An amount with its currency's decimals, the format's marks and thousands separators. */
export function amountText(amount: number, currency: string, format: FileFormat): string {
  const decimals = DECIMALS[currency] ?? 2;
  const [whole, fraction] = Math.abs(amount).toFixed(decimals).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, format.thousands);
  return `${amount < 0 ? "-" : ""}${grouped}${fraction ? format.decimal + fraction : ""}`;
}

/** A field quoted when it holds the delimiter, a quote or a line break. */
function field(value: string, delimiter: string): string {
  return /["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The file's text: header, then lines, CRLF as Excel and banks write them. */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[], format: FileFormat): string {
  return [header, ...rows].map((r) => r.map((v) => field(v, format.delimiter)).join(format.delimiter)).join("\r\n") + "\r\n";
}

/** The text's bytes in the format's encoding (Windows-1252 for Latin-1's letters; any other character as "?"). */
export function fileBytes(text: string, format: FileFormat): Uint8Array {
  if (format.encoding === "utf-8-bom") {
    const body = new TextEncoder().encode(text);
    const out = new Uint8Array(body.length + 3);
    out.set([0xef, 0xbb, 0xbf]);
    out.set(body, 3);
    return out;
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[i] = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : 0x3f;
  }
  return out;
}
