/**
 * What happens when a person commits text into a cell: a value, or a formula of Excel's own functions, is typed
 * through UserActions (data validation and Text cells apply; the in-memory Excel calculates the formula); a
 * formula calling the add-in's functions is calculated by their runtime and spilled. Each cell keeps the message of
 * its own last entry (a refused value, a formula's error, its spill), which the formula bar shows for the
 * selected cell only.
 */
import type { FakeExcel } from "./fake-excel";
import { parseArea, type Area } from "./fake-excel/address";
import { callsCustomFunction } from "./fake-excel/formula-engine";
import { inArea } from "./fake-excel/spills";
import { evaluate, type FormulaResult } from "./formula";
import type { FunctionsMetadata } from "./formula-arguments";
import { inDependencyOrder } from "./recalc-order";
import { messageOf } from "../domain";

export interface CellMessage {
  text: string;
  kind: "ok" | "error" | "busy";
}

interface Stored extends CellMessage {
  /** The formula the message is about: a message outlives no change of the cell's formula. */
  formula: string | undefined;
}

export type EntryOutcome = { ok: true } | { ok: false; message: string };

/** A typed formula: "=…"; "+…" and "-…" too, unless they are numbers (Excel makes "+A1" the formula "=+A1"). */
export function asFormula(text: string): string | null {
  if (text.startsWith("=") && text.length > 1) return text;
  if (/^[+-]/.test(text) && !/^[+-]\s*[\d.,]+(e[+-]?\d+)?%?$/i.test(text.trim())) return `=${text}`;
  return null;
}

export class Entries {
  private readonly messages = new Map<string, Stored>();
  /** The latest calculation per cell: an earlier one that ends later is dropped. */
  private readonly pending = new Map<string, number>();
  private calculations = 0;

  /** `changed` runs when a calculation ends (the grid redraws). */
  /**
   * `changed` runs when a calculation ends (the grid redraws). `functions` is false where Excel ignored the
   * manifest's VersionOverrides (fake-excel/addin-parts.ts): the =SPEND functions are not there, #NAME?.
   */
  /** functions.json once read: which parameters a referenced cell's data type is handed to whole. */
  private metadata: FunctionsMetadata | null = null;

  constructor(private readonly excel: FakeExcel, private readonly changed: () => void, private readonly options: { functions: boolean } = { functions: true }) {}

  /** The functions' metadata, as Excel reads it from the manifest's functions.json. */
  useMetadata(metadata: FunctionsMetadata): void {
    this.metadata = metadata;
  }

  private key(sheet: string, address: string): string {
    return `${this.excel.model.sheet(sheet)?.id ?? sheet}!${address}`;
  }

  /** The message of this cell, if it still speaks of what the cell holds. */
  messageOf(sheet: string, address: string): CellMessage | null {
    const spill = this.excel.user.spillAt(sheet, address);
    if (spill?.inTable && spill.anchor === address) {
      return { kind: "error", text: `#SPILL! Spill range in table: the result (${spill.rows} × ${spill.columns}) would spill into the table ${spill.inTable}, and spilled array formulas aren't supported in Excel tables. Move the formula out of the table, or convert the table to a range.` };
    }
    if (spill?.blockedBy && spill.anchor === address) {
      return { kind: "error", text: `#SPILL! The result (${spill.rows} × ${spill.columns}) would cover ${spill.blockedBy}, which is not empty: clear it and the formula spills.` };
    }
    const stored = this.messages.get(this.key(sheet, address));
    const { row, column } = parseArea(address);
    if (stored && stored.formula === this.excel.model.sheet(sheet)?.cell(row, column)?.formula) return stored;
    // A formula that spilled (again, once a cell in its way was cleared) says how far.
    if (spill && spill.anchor === address) return { kind: "ok", text: `Spilled ${spill.rows} × ${spill.columns}.` };
    return null;
  }

  forget(sheet: string, address: string): void {
    this.messages.delete(this.key(sheet, address));
  }

  /** Cleared cells say nothing more. */
  forgetArea(sheet: string, area: Area): void {
    for (const key of [...this.messages.keys()]) {
      const [id, address] = [key.slice(0, key.lastIndexOf("!")), key.slice(key.lastIndexOf("!") + 1)];
      const { row, column } = parseArea(address);
      if (id === (this.excel.model.sheet(sheet)?.id ?? sheet) && inArea(area, row, column)) this.messages.delete(key);
    }
  }

  private say(sheet: string, address: string, message: CellMessage | null): void {
    if (!message) return this.forget(sheet, address);
    const { row, column } = parseArea(address);
    this.messages.set(this.key(sheet, address), { ...message, formula: this.excel.model.sheet(sheet)?.cell(row, column)?.formula });
  }

  /** Commits typed text. A refused value leaves the cell as it was and says why. */
  enter(sheet: string, address: string, text: string): EntryOutcome {
    const { row, column } = parseArea(address);
    const cell = this.excel.model.sheet(sheet)?.cell(row, column);
    const formula = cell?.numberFormat === "@" ? null : asFormula(text);
    // The add-in's functions are the workbench runtime's to call; Excel's own formulas are the in-memory Excel's (formula-engine.ts).
    if (formula && callsCustomFunction(formula)) {
      void this.calculate(sheet, address, formula);
      return { ok: true };
    }
    try {
      this.excel.user.type(sheet, address, text);
      this.forget(sheet, address);
      return { ok: true };
    } catch (error) {
      const message = messageOf(error);
      this.messages.set(this.key(sheet, address), { kind: "error", text: message, formula: cell?.formula });
      return { ok: false, message };
    }
  }

  /**
   * Calculates a formula in its cell (#BUSY! meanwhile, as Excel shows an asynchronous function) and spills
   * the result. A result that arrives after the cell was given something else is dropped.
   */
  async calculate(sheet: string, address: string, formula: string): Promise<void> {
    this.excel.user.spill(sheet, address, formula, [["#BUSY!"]]);
    this.say(sheet, address, { kind: "busy", text: "Calculating…" });
    const token = ++this.calculations;
    this.pending.set(this.key(sheet, address), token);
    let result: FormulaResult;
    try {
      result = await evaluate(formula, (ref) => this.excel.user.referencedAt(sheet, ref), { ...this.options, metadata: this.metadata });
    } catch (error) {
      result = { grid: [["#VALUE!"]], error: `#VALUE! ${messageOf(error)}` };
    }
    if (this.pending.get(this.key(sheet, address)) !== token) return;
    this.pending.delete(this.key(sheet, address));
    const { row, column } = parseArea(address);
    if (this.excel.model.sheet(sheet)?.cell(row, column)?.formula !== formula) return;
    this.excel.user.spill(sheet, address, formula, result.grid, result.formats, result.typed);
    // Without an error, the spill itself is the message (messageOf), so it follows a later #SPILL!; an
    // entity's fields are its message, as Excel shows them on the value's card.
    this.say(sheet, address, result.error ? { kind: "error", text: result.error } : result.card ? { kind: "ok", text: result.card } : null);
    this.changed();
  }

  /** Refresh data's recalculation: every =SPEND formula in the workbook asks again, each after those it refers to. */
  async recalculateAll(): Promise<void> {
    const placed = this.excel.user.formulas().filter((f) => /^=\s*SPEND\./i.test(f.formula))
      .map((f) => ({ ...f, area: this.excel.user.spillAt(f.sheet, f.address)?.area ?? f.address }));
    await inDependencyOrder(placed, (f) => this.calculate(f.sheet, f.address, f.formula));
  }
}
