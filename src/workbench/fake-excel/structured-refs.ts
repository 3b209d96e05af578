/**
 * Excel's structured references (`Bank[Ref]`, `Table1[@[Expense #]]`, `Bank[[#All],[Ref]:[Paid at]]`, `[@State]`
 * inside a table) turned into the A1 ranges they stand for, so that the formula engine, which has no tables,
 * calculates them. Only what the engine is handed is translated: the cell keeps its formula as written, and
 * `Range.formulas` reads it back that way, as Excel does.
 * https://support.microsoft.com/office/using-structured-references-with-excel-tables-f5ed2452-2337-4f71-bed3-c8ae6d2b276e
 *
 * Rules taken from that article: a table name alone is its data (no header, no Total Row); `#All`, `#Data`,
 * `#Headers`, `#Totals` and `#This Row` (or `@`) pick rows, `[A]:[B]` a run of columns; in a column name the
 * characters `[ ] # '` are escaped by a `'`; an unqualified reference (`[@State]`) means the table the formula
 * sits in. A column the table does not have is `#REF!` (strict: Excel refuses such a formula when it is
 * entered; here its value is the error). `@` outside the table's data rows is `#VALUE!`, as in Excel.
 */
import { formatArea, type Area } from "./address";
import type { SheetModel, TableModel } from "./model";

/** Where the formula is: its sheet and cell (0-based), for `@` and unqualified references. */
export interface FormulaPlace {
  sheet: SheetModel;
  row: number;
  column: number;
}

/** The table's header texts, in order. */
function headersOf(table: TableModel): string[] {
  return Array.from({ length: table.area.columnCount }, (_, c) => String(table.sheet.cell(table.area.row, table.area.column + c)?.value ?? ""));
}

/** A bracketed part read from `text` at `start` (which is a `[`): its inside and where it ends, or null when unbalanced. */
function bracket(text: string, start: number): { inside: string; end: number } | null {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" && depth > 0) {
      i++; // an escaped character inside a column name
      continue;
    }
    if (ch === "[") depth++;
    else if (ch === "]" && --depth === 0) return { inside: text.slice(start + 1, i), end: i + 1 };
  }
  return null;
}

const unescape = (name: string) => name.replace(/'(.)/g, "$1").trim();

/** The parts of a reference's inside: special items (`#All`…, `@`) and column names, with `:` runs. */
interface Parts {
  items: Set<string>;
  columns: string[];
}

function partsOf(inside: string): Parts {
  const parts: Parts = { items: new Set(), columns: [] };
  const text = inside.trim();
  if (text === "") return parts;
  if (text.startsWith("@")) {
    parts.items.add("#this row");
    const rest = text.slice(1).trim();
    if (rest !== "") parts.columns.push(...columnRun(rest));
    return parts;
  }
  if (!text.startsWith("[")) {
    if (text.startsWith("#")) parts.items.add(text.toLowerCase());
    else parts.columns.push(unescape(text));
    return parts;
  }
  for (let i = 0; i < text.length; ) {
    const part = text[i] === "[" ? bracket(text, i) : null;
    if (!part) {
      i++;
      continue;
    }
    const name = part.inside.trim();
    if (name.startsWith("#") || name === "@") parts.items.add(name === "@" ? "#this row" : name.toLowerCase());
    else {
      // `[A]:[B]`: a run of columns.
      const colon = /^\s*:\s*\[/.exec(text.slice(part.end));
      const second = colon ? bracket(text, part.end + colon[0].length - 1) : null;
      parts.columns.push(unescape(name), ...(second ? [`:${unescape(second.inside)}`] : []));
      if (second) {
        i = second.end;
        continue;
      }
    }
    i = part.end;
  }
  return parts;
}

/** `[A]:[B]` or `A` after `@`. */
function columnRun(rest: string): string[] {
  if (!rest.startsWith("[")) return [unescape(rest)];
  return partsOf(rest).columns;
}

/** The A1 range of a reference, or an Excel error's text. */
function rangeOf(table: TableModel, parts: Parts, place: FormulaPlace): string {
  const headers = headersOf(table).map((h) => h.toLowerCase());
  const { area } = table;
  let first = 0;
  let last = area.columnCount - 1;
  if (parts.columns.length > 0) {
    const from = headers.indexOf(parts.columns[0].toLowerCase());
    const toName = parts.columns.find((c) => c.startsWith(":"));
    const to = toName ? headers.indexOf(toName.slice(1).toLowerCase()) : from;
    if (from < 0 || to < 0) return "#REF!";
    [first, last] = [Math.min(from, to), Math.max(from, to)];
  }
  const dataFirst = area.row + 1;
  const dataLast = area.row + area.rowCount - 1 - (table.showTotals ? 1 : 0);
  const { items } = parts;
  let rows: [number, number];
  if (items.has("#this row")) {
    if (place.sheet !== table.sheet || place.row < dataFirst || place.row > dataLast) return "#VALUE!";
    rows = [place.row, place.row];
  } else if (items.has("#all")) rows = [area.row, area.row + area.rowCount - 1];
  else {
    const wanted = [items.has("#headers") ? area.row : null, items.has("#data") || items.size === 0 ? dataFirst : null, items.has("#totals") && table.showTotals ? dataLast + 1 : null];
    const endAt = items.has("#totals") && table.showTotals ? dataLast + 1 : items.has("#data") || items.size === 0 ? dataLast : area.row;
    const startAt = wanted.find((r): r is number => r !== null);
    if (startAt === undefined || endAt < startAt) return "#REF!";
    rows = [startAt, endAt];
  }
  const range: Area = { row: rows[0], column: area.column + first, rowCount: rows[1] - rows[0] + 1, columnCount: last - first + 1 };
  return absolute(formatArea(range, table.sheet.name));
}

/** `Sheet!A1:B2` as `Sheet!$A$1:$B$2`: a translated reference never moves. */
const absolute = (ref: string) => ref.replace(/(!|:|^)([A-Z]{1,3})(\d+)/g, "$1$$$2$$$3");

/**
 * The formula with every structured reference replaced by its A1 range (on the table's sheet); text in double
 * quotes and sheet names in single quotes are left alone. `tables` are the workbook's; a name that is no table's
 * is left as it is (the engine then answers #NAME?, as Excel would for an unknown name).
 */
export function translateStructured(formula: string, tables: readonly TableModel[], place: FormulaPlace): string {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  if (!formula.includes("[") && ![...byName.keys()].some((name) => formula.toLowerCase().includes(name))) return formula;
  const own = tables.find((t) => t.sheet === place.sheet && place.row >= t.area.row && place.row < t.area.row + t.area.rowCount
    && place.column >= t.area.column && place.column < t.area.column + t.area.columnCount);
  let out = "";
  for (let i = 0; i < formula.length; ) {
    const rest = formula.slice(i);
    const quoted = /^"(?:[^"]|"")*"?/.exec(rest) ?? /^'(?:[^']|'')*'?/.exec(rest);
    if (quoted) {
      out += quoted[0];
      i += quoted[0].length;
      continue;
    }
    const word = /^[A-Za-z_\\][\w.\\]*/.exec(rest)?.[0];
    const table = word ? byName.get(word.toLowerCase()) : formula[i] === "[" ? own : undefined;
    const after = i + (word?.length ?? 0);
    const part = table && formula[after] === "[" ? bracket(formula, after) : null;
    const prev = out[out.length - 1] ?? "";
    if (table && part) {
      out += rangeOf(table, partsOf(part.inside), place);
      i = part.end;
    } else if (table && word && !/[(!]/.test(formula[after] ?? "") && !/[!$\w.]/.test(prev)) {
      // A table's name alone is its data.
      out += rangeOf(table, { items: new Set(), columns: [] }, place);
      i = after;
    } else {
      out += word ?? formula[i];
      i += word?.length ?? 1;
    }
  }
  return out;
}
