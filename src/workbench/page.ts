/**
 * The workbench page: the real taskpane beside the in-memory Excel, rendered as sheet grids a person can
 * click and type into, with a formula bar that calls the real =SPEND.* functions and spills their results.
 * Everything goes to the service through the same client, governor and workbook port as in Excel.
 */
import { Session } from "../api";
import "../functions/functions";
import { useSession } from "../functions/runtime";
import { ExcelWorkbook, runSelfTest, serialToDate, serialToTimestamp } from "../sheets";
import { JOURNAL_TABLE } from "../sync";
import { mountTaskpane } from "../taskpane/app";
import { fill, h } from "../taskpane/dom";
import { FakeExcel, type Scalar, type SheetModel } from "./fake-excel";
import { columnLetters, parseArea } from "./fake-excel/address";
import { selection } from "./fake-excel/range";
import { callFormula } from "./formula";

const MAX_ROWS_SHOWN = 500;
const excel = new FakeExcel();
Object.assign(window, { spendWorkbench: { excel } });
const session = new Session(localStorage);
useSession(session);
const workbook = new ExcelWorkbook(excel);

const grid = document.getElementById("grid")!;
const tabs = document.getElementById("tabs")!;
const nameBox = document.getElementById("name-box") as HTMLInputElement;
const formula = document.getElementById("formula") as HTMLInputElement;
const formulaStatus = document.getElementById("formula-status")!;
let active = excel.model.sheets[0].name;
let selected = "A1";
let drawn = -1;
let tablesSeen = 0;

function display(value: Scalar, format: string): string {
  if (typeof value === "number") {
    if (format === "yyyy-mm-dd") return serialToDate(value);
    if (format.startsWith("yyyy-mm-dd h")) return serialToTimestamp(value).replace("T", " ").replace("Z", "");
    if (format.includes("0.00")) return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  return String(value);
}

function render(): void {
  const visible = excel.model.sheets.filter((s) => s.visibility === "Visible");
  if (!visible.some((s) => s.name === active)) active = visible[0].name;
  fill(tabs, ...visible.map((s) => h("button", { type: "button", "data-sheet": s.name, "aria-current": s.name === active ? "true" : "false", onclick: () => { active = s.name; render(); } }, s.name)));
  const sheet = excel.model.sheet(active)!;
  const used = sheet.usedArea();
  const rows = Math.min(MAX_ROWS_SHOWN, Math.max(20, used ? used.row + used.rowCount : 0));
  const columns = Math.max(8, used ? used.column + used.columnCount : 0);
  const head = h("tr", {}, h("th", { className: "rowhead" }), ...Array.from({ length: columns }, (_, c) => h("th", {}, columnLetters(c))));
  const body = Array.from({ length: rows }, (_, r) => h("tr", {}, h("th", { className: "rowhead" }, r + 1), ...Array.from({ length: columns }, (_, c) => cellView(sheet, r, c))));
  fill(grid, h("table", { role: "grid", "aria-label": active }, h("thead", {}, head), h("tbody", {}, ...body)),
    used && used.row + used.rowCount > MAX_ROWS_SHOWN ? h("div", { className: "more" }, `Showing the first ${MAX_ROWS_SHOWN} rows of ${used.row + used.rowCount}.`) : null);
}

function cellView(sheet: SheetModel, r: number, c: number): HTMLElement {
  const cell = sheet.cell(r, c);
  const address = `${columnLetters(c)}${r + 1}`;
  const td = h("td", { "data-cell": address, role: "gridcell", className: [typeof cell?.value === "number" ? "num" : "", cell?.bold ? "bold" : "", address === selected ? "selected" : ""].join(" ").trim(),
    onclick: () => select(address) }, cell ? display(cell.value, cell.numberFormat) : "");
  // Fills come from the add-in's own constants; anything else is not painted.
  if (cell?.fill && /^#[0-9A-F]{6}$/i.test(cell.fill)) td.style.backgroundColor = cell.fill;
  return td;
}

function select(address: string): void {
  selected = address;
  nameBox.value = address;
  const { row, column } = parseArea(address);
  const cell = excel.model.sheet(active)?.cell(row, column);
  formula.value = cell?.formula ?? (cell ? String(cell.value) : "");
  render();
}

async function enter(): Promise<void> {
  const text = formula.value;
  formulaStatus.className = "";
  formulaStatus.textContent = "";
  try {
    if (/^=SPEND\./i.test(text.trim())) {
      formulaStatus.textContent = "Calculating…";
      const result = await callFormula(text, (ref) => {
        const { row, column } = parseArea(ref);
        return excel.model.sheet(active)?.cell(row, column)?.value ?? null;
      });
      excel.user.spill(active, selected, text, result.grid);
      formulaStatus.className = result.error ? "error" : "ok";
      formulaStatus.textContent = result.error ?? `Spilled ${result.grid.length} × ${result.grid[0]?.length ?? 0}.`;
    } else {
      excel.user.type(active, selected, text);
    }
  } catch (error) {
    formulaStatus.className = "error";
    formulaStatus.textContent = (error as Error).message;
  }
  render();
}

formula.addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    void enter();
  }
});

const params = new URLSearchParams(location.search);
mountTaskpane(document.getElementById("app")!, {
  session, workbook, selfTest: () => runSelfTest(excel, "the workbench's in-memory Excel"),
  defaults: { baseUrl: params.get("baseUrl") ?? `${location.origin}/proxy`, enterpriseId: params.get("enterprise") ?? "" },
  onWorkbookChanged: () => {
    // Follow the add-in: show the sheet of the cell it selected (a link to a row), or of the newest table.
    if (selection.current) {
      active = selection.current.sheet;
      selected = `${columnLetters(selection.current.area.column)}${selection.current.area.row + 1}`;
      selection.current = null;
    } else {
      // A table just loaded: show it (the journal stays on its own tab until the user opens it).
      const loaded = excel.model.tables.filter((t) => t.sheet.visibility === "Visible" && t.name !== JOURNAL_TABLE);
      if (loaded.length > tablesSeen) active = loaded[loaded.length - 1].sheet.name;
      tablesSeen = loaded.length;
    }
    render();
  },
});

// Redraw whenever the add-in synced something to the in-memory Excel.
setInterval(() => {
  if (excel.stats.syncs !== drawn) {
    drawn = excel.stats.syncs;
    render();
  }
}, 250);
render();
