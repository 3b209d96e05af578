/**
 * The import's column mapping, shown once per kind of file: which column holds each field, how amounts and
 * dates are written. A mapping the person confirmed is remembered on this device per kind of file (its header),
 * never in the workbook and never with anything of the connection.
 */
import type { KeyValueStorage } from "../api";
import {
  FIELD_LABELS, IMPORT_FIELDS, decideDateOrder, decideDecimalMark, fileSignature, guessColumns, mappingProblem,
  type DateOrder, type DecimalMark, type FileMapping, type FileShape, type ImportKind,
} from "../domain/import";
import { field, h, select } from "./dom";

const KEY_PREFIX = "spendsync.import.";
const keyOf = (kind: ImportKind, header: readonly string[]) => `${KEY_PREFIX}${kind}.${fileSignature(header)}`;

/** The mapping remembered for this kind of file, if any (an unreadable one is forgotten). */
function remembered(storage: KeyValueStorage, kind: ImportKind, header: readonly string[]): FileMapping | null {
  try {
    const saved = JSON.parse(storage.getItem(keyOf(kind, header)) ?? "null") as FileMapping | null;
    return saved && saved.kind === kind && typeof saved.columns === "object" ? saved : null;
  } catch {
    return null;
  }
}

/** Keeps a confirmed mapping for the next file with this header. */
export function rememberMapping(storage: KeyValueStorage, mapping: FileMapping, header: readonly string[]): void {
  storage.setItem(keyOf(mapping.kind, header), JSON.stringify(mapping));
}

export interface MappingForm {
  element: HTMLElement;
  /** The mapping as chosen, or the sentence saying what is still to choose. */
  read(): FileMapping | string;
  /** Whether this mapping was remembered from an earlier file. */
  remembered: boolean;
}

/** The form for a file's shape: remembered choices, else the header's guess and the marks the sample decides. */
export function mappingForm(shape: FileShape, kind: ImportKind, storage: KeyValueStorage): MappingForm {
  const saved = remembered(storage, kind, shape.header);
  const columns = saved?.columns ?? guessColumns(shape.header);
  const sampleOf = (header?: string) => (header ? shape.rows.map((r) => r.fields[shape.header.indexOf(header)] ?? "") : []);
  const decimal = decideDecimalMark(sampleOf(columns.amount));
  const dates = decideDateOrder(sampleOf(columns.date));
  const labels = FIELD_LABELS[kind];
  const selects = Object.fromEntries(IMPORT_FIELDS.map((f) => {
    const s = select(`import-${f}`, ["", ...shape.header], { "": "(none)" });
    s.value = columns[f] ?? "";
    return [f, s];
  })) as Record<(typeof IMPORT_FIELDS)[number], HTMLSelectElement>;
  const decimalSelect = select("import-decimal", ["", "dot", "comma"], { "": "(choose)", dot: "1,234.50 (decimal point)", comma: "1.234,50 (decimal comma)" });
  decimalSelect.value = saved?.decimal ?? decimal.mark ?? "";
  const dateSelect = select("import-date-order", ["", "dmy", "mdy"], { "": "(choose)", dmy: "day first (13/04/2026)", mdy: "month first (04/13/2026)" });
  dateSelect.value = saved?.dateOrder ?? dates.order ?? "";
  const element = h("div", { className: "import-mapping" },
    ...IMPORT_FIELDS.map((f) => field(labels[f], selects[f])),
    field("Amounts written", decimalSelect, decimal.mark || saved ? undefined : `Choose: ${decimal.why}.`),
    dates.needed || saved?.dateOrder ? field("Dates written", dateSelect, dates.order || saved?.dateOrder ? undefined : `Choose: ${dates.why}; it is never guessed.`) : null);
  return {
    element,
    remembered: saved !== null,
    read: () => {
      const chosen: FileMapping["columns"] = {};
      for (const f of IMPORT_FIELDS) if (selects[f].value) chosen[f] = selects[f].value;
      if (!decimalSelect.value) return `Choose how the amounts are written: ${decimal.why || "the file does not say"}.`;
      if (dates.needed && !dateSelect.value) return `Choose how the dates are written: ${dates.why}. A date such as 03/04 is never guessed.`;
      const mapping: FileMapping = {
        kind, columns: chosen, decimal: decimalSelect.value as DecimalMark, dateOrder: (dateSelect.value || null) as DateOrder | null,
      };
      return mappingProblem(mapping, shape.header) ?? mapping;
    },
  };
}
