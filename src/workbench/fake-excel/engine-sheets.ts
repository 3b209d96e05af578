/**
 * One HyperFormula instance kept per workbook, fed only what changed: building an engine costs about 100 ms
 * whatever its size (its function registry), and handing it a sheet again costs in proportion to its cells, so
 * a workbook where a person types a formula per row would pay both at every keystroke. What the engine was last
 * handed is kept per sheet; each calculation compares the sheets' contents with it, cell by cell (plain
 * comparisons, a fraction of a millisecond for thousands of cells), and sets only the cells that differ, in one
 * batch (the engine recalculates once, what depends on them). Sheets deleted are removed, renamed ones renamed.
 */
import { HyperFormula, type RawCellContent } from "hyperformula";
import type { SheetModel, WorkbookModel } from "./model";

/** TRUE and FALSE as Excel reads them (HyperFormula knows them only as functions, TRUE()). */
const NAMED = [{ name: "TRUE", expression: "=TRUE()" }, { name: "FALSE", expression: "=FALSE()" }];

/** GPL-3.0: dev and tests only (formula-engine.ts says why). Numbers as calculated (smartRounding off: Excel keeps 15 digits, HyperFormula would round them). */
const CONFIG = { licenseKey: "gpl-v3", useColumnIndex: true, smartRounding: false, maxRows: 1_048_576, maxColumns: 16_384 };

/** More changed cells than this in a sheet: the sheet is handed whole (cheaper than cell by cell). */
const WHOLE_SHEET_CHANGES = 2_000;

interface HandedSheet {
  id: number;
  name: string;
  content: RawCellContent[][];
}

interface Kept {
  engine: HyperFormula;
  /** By the model sheet's id. */
  sheets: Map<string, HandedSheet>;
}

const kept = new WeakMap<WorkbookModel, Kept>();

/** The cells where `next` differs from `before` ([row, column, content]). */
function changes(before: RawCellContent[][], next: RawCellContent[][]): [number, number, RawCellContent][] {
  const out: [number, number, RawCellContent][] = [];
  for (let r = 0; r < Math.max(before.length, next.length); r++) {
    const a = before[r] ?? [];
    const b = next[r] ?? [];
    for (let c = 0; c < Math.max(a.length, b.length); c++) {
      const x = a[c] ?? null;
      const y = b[c] ?? null;
      if (x !== y) out.push([r, c, y]);
    }
  }
  return out;
}

/**
 * The workbook's engine, holding exactly `contents` (by sheet) and the sheets it was handed before (still in the
 * workbook); returns it with each sheet's id in it.
 */
export function engineWith(model: WorkbookModel, contents: Map<SheetModel, RawCellContent[][]>): { engine: HyperFormula; idOf: (sheet: SheetModel) => number } {
  let state = kept.get(model);
  if (!state) kept.set(model, (state = { engine: HyperFormula.buildEmpty(CONFIG, NAMED), sheets: new Map() }));
  const { engine, sheets } = state;
  const present = new Map(model.sheets.map((s) => [s.id, s]));
  engine.batch(() => {
    for (const [id, handed] of sheets) {
      if (present.has(id)) continue;
      engine.removeSheet(handed.id);
      sheets.delete(id);
    }
    for (const [id, handed] of sheets) {
      const sheet = present.get(id)!;
      if (handed.name !== sheet.name) engine.renameSheet(handed.id, (handed.name = sheet.name));
    }
    // New sheets first, empty, so that a formula handed below finds every sheet it names.
    for (const sheet of contents.keys()) {
      if (sheets.has(sheet.id)) continue;
      sheets.set(sheet.id, { id: engine.getSheetId(engine.addSheet(sheet.name))!, name: sheet.name, content: [] });
    }
    for (const [id, handed] of sheets) {
      const sheet = present.get(id)!;
      const next = contents.get(sheet);
      if (!next) continue;
      const diff = changes(handed.content, next);
      if (diff.length > WHOLE_SHEET_CHANGES) engine.setSheetContent(handed.id, next);
      else for (const [row, col, content] of diff) engine.setCellContents({ sheet: handed.id, row, col }, content);
      handed.content = next;
    }
  });
  return { engine, idOf: (sheet) => sheets.get(sheet.id)!.id };
}
