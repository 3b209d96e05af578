/**
 * Which column of a file holds what, and how its amounts and dates are written: guessed from the header the
 * first time, confirmed by the person, and remembered per kind of file (its header) on the device.
 */
import type { DecimalMark } from "./amounts";
import type { DateOrder } from "./dates";

/** A bank's (or payroll's) payment file fills Paid ID and Paid at; an ERP's journal fills Accounted ID. */
export type ImportKind = "bank" | "erp";

export const IMPORT_FIELDS = ["reference", "amount", "currency", "date", "person", "value"] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Each field -> the header of its column (absent: the file has none). */
export type ColumnMap = Partial<Record<ImportField, string>>;

/** What the person chose for one kind of file; never anything of the connection. */
export interface FileMapping {
  kind: ImportKind;
  columns: ColumnMap;
  decimal: DecimalMark;
  /** Asked only of files with numeric dates that do not say their order. */
  dateOrder: DateOrder | null;
}

/** The fields' names as the taskpane shows them. */
export const FIELD_LABELS: Record<ImportKind, Record<ImportField, string>> = {
  bank: { reference: "Reference", amount: "Amount", currency: "Currency", date: "Payment date", person: "Beneficiary", value: "Payment ID" },
  erp: { reference: "Reference", amount: "Amount", currency: "Currency", date: "Posting date", person: "Employee", value: "Document number" },
};

const SYNONYMS: Record<ImportField, RegExp> = {
  reference: /^(ref|reference|referencia|concept|concepto|description|descripcion|memo|narrative|remittance|details|detalle|glosa|expense|allowance|record)/,
  amount: /^(amount|importe|monto|valor|debit|cargo|total|sum)/,
  currency: /^(currency|ccy|moneda|divisa|cur)$/,
  date: /^(date|fecha|value date|posting date|booking date|payment date|paid|valuta)/,
  person: /^(beneficiary|payee|employee|empleado|beneficiario|name|nombre|counterparty|person|email|rut)/,
  value: /^(payment id|payment ref|transaction id|txn id|id pago|document|doc no|document number|journal|entry|asiento|voucher|comprobante|accounting id|bank ref)/,
};

const norm = (header: string) => header.trim().toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[_.#]+/g, " ").replace(/\s+/g, " ").trim();

/** The kind of file a header says (the same export from the same bank has the same header): the key its mapping is remembered by. */
export function fileSignature(header: readonly string[]): string {
  return header.map(norm).join("|");
}

/** A first guess of the columns from the header's words; each column used once, the value's column first. */
export function guessColumns(header: readonly string[]): ColumnMap {
  const used = new Set<number>();
  const map: ColumnMap = {};
  for (const field of ["value", "currency", "amount", "date", "person", "reference"] as const) {
    const at = header.findIndex((h, i) => !used.has(i) && SYNONYMS[field].test(norm(h)));
    if (at >= 0) {
      used.add(at);
      map[field] = header[at];
    }
  }
  return map;
}

/** What is missing for a mapping to be used; null when it can be. */
export function mappingProblem(mapping: FileMapping, header: readonly string[]): string | null {
  const labels = FIELD_LABELS[mapping.kind];
  for (const [field, column] of Object.entries(mapping.columns) as [ImportField, string][]) {
    if (!header.includes(column)) return `The file has no column "${column}" for ${labels[field]}: map it again.`;
  }
  const has = (f: ImportField) => mapping.columns[f] !== undefined;
  if (!has("value")) return `Choose the column of the ${labels.value}: it is what the import fills in.`;
  if (mapping.kind === "bank" && !has("date")) return "Choose the column of the Payment date: it fills Paid at.";
  if (!has("reference") && !(has("person") && has("amount") && has("date"))) {
    return `Choose a Reference column, or ${labels.person}, Amount and ${labels.date}: lines are matched by one or the other.`;
  }
  return null;
}
