/**
 * The taskpane's Import section: a bank's or an ERP's file (a CSV, or a range pasted from another workbook) into
 * a loaded table's tracked columns. The person maps its columns once per kind of file; the file is read whole
 * (with progress) before anything is written, so a bad file changes nothing; the unique matches are filled as
 * edits and every other line is listed with why. Nothing is sent: Preview sync and Confirm do that.
 */
import type { KeyValueStorage } from "../api";
import {
  ImportFileError, detectEncoding, readImportFile, sniffShape, type FileMapping, type FileShape, type ImportKind, type LineOutcome, type MatchReport,
} from "../domain/import";
import { importLines, listLoadedTables } from "../sheets";
import { field, h, select, setChildren } from "./dom";
import { mappingForm, rememberMapping, type MappingForm } from "./import-mapping";
import { failed, status } from "./status";
import type { SectionContext } from "./taskpane-state";

const SAMPLE_BYTES = 64 * 1024;
const SHOWN_LINES = 500;
const KINDS: Record<ImportKind, string> = { bank: "Bank or payroll payments (fills Paid ID and Paid at)", erp: "ERP journal (fills Accounted ID)" };
const FILE_NAMES: Record<ImportKind, string> = { bank: "bank file", erp: "ERP file" };

/** A file chosen or a range pasted: its first lines' shape, and its bytes in chunks. */
interface Source {
  name: string;
  size: number;
  shape: FileShape;
  chunks(): AsyncIterable<Uint8Array>;
}

async function* streamOf(blob: Blob): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** A file's shape from its first 64 KB (whole lines only), its encoding decided there. */
async function fileSource(file: Blob & { name?: string }): Promise<Source> {
  const head = new Uint8Array(await file.slice(0, SAMPLE_BYTES).arrayBuffer());
  const text = new TextDecoder(detectEncoding(head)).decode(head);
  const whole = file.size > SAMPLE_BYTES ? text.slice(0, Math.max(text.lastIndexOf("\n"), 0)) : text;
  return { name: file.name ?? "pasted range", size: file.size, shape: sniffShape(whole), chunks: () => streamOf(file) };
}

const OUTCOME_WORDS: Record<LineOutcome["kind"], string> = {
  filled: "filled", already: "already held", conflict: "conflict", ambiguous: "ambiguous", unmatched: "unmatched", unreadable: "unreadable",
};
const CLASS: Record<LineOutcome["kind"], string> = { filled: "ok", already: "ok", conflict: "error", ambiguous: "warn", unmatched: "warn", unreadable: "error" };

/** The report's sentence and its lines: those that need the person first, then the filled ones. */
function reportView(report: MatchReport, filledRows: number, name: string): HTMLElement[] {
  const c = report.counts;
  const sentence = `${name}: ${c.filled} line${c.filled === 1 ? "" : "s"} filled ${filledRows} row${filledRows === 1 ? "" : "s"} (marked orange, nothing sent: Preview sync, then Confirm); ` +
    `${c.ambiguous} ambiguous, ${c.unmatched} unmatched, ${c.conflict} conflict${c.conflict === 1 ? "" : "s"} (not overwritten), ${c.already} already held, ${c.unreadable} unreadable.`;
  const order = ["conflict", "ambiguous", "unmatched", "unreadable", "already", "filled"] as const;
  const lines = [...report.outcomes].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.line - b.line);
  const shown = lines.slice(0, SHOWN_LINES);
  return [
    h("p", { id: "import-counts" }, sentence),
    h("ul", { id: "import-lines", className: "rows" },
      ...shown.map((o) => h("li", { className: CLASS[o.kind], "data-kind": o.kind }, `Line ${o.line}, ${OUTCOME_WORDS[o.kind]}: ${o.why}.`)),
      lines.length > shown.length ? h("li", {}, `… and ${lines.length - shown.length} more.`) : null),
  ];
}

/** Builds the section; `refresh` lists the loaded tables again (after a load). */
export function importSection(ctx: SectionContext, storage: KeyValueStorage, onImported: () => void): { element: HTMLElement; refresh(): Promise<void> } {
  const table = h("select", { id: "import-table" });
  const kind = select("import-kind", ["bank", "erp"], KINDS);
  const file = h("input", { id: "import-file", type: "file", accept: ".csv,.txt,text/csv" });
  const paste = h("textarea", { id: "import-paste", rows: 3, placeholder: "or paste a range copied from Excel (its header first)" });
  const usePaste = h("button", { id: "import-use-paste", type: "button" }, "Use pasted range");
  const mappingBox = h("div", { id: "import-mapping" });
  const run = h("button", { id: "import-run", className: "primary", type: "button", disabled: true }, "Import into the table");
  const progress = h("progress", { id: "import-progress", max: 1, value: 0, hidden: true, "aria-label": "File read" });
  const importStatus = h("div", { id: "import-status", role: "status", "aria-live": "polite" });
  const result = h("div", { id: "import-result" });
  let chosen: { source: Source; form: MappingForm } | null = null;

  async function refresh(): Promise<void> {
    const keep = table.value;
    const names = await listLoadedTables(ctx.workbook);
    setChildren(table, ...(names.length ? names.map((n) => h("option", { value: n }, n)) : [h("option", { value: "" }, "(no table loaded yet)")]));
    if (names.includes(keep)) table.value = keep;
  }

  async function take(make: () => Promise<Source>): Promise<void> {
    chosen = null;
    run.disabled = true;
    setChildren(mappingBox);
    setChildren(result);
    try {
      const source = await make();
      const form = mappingForm(source.shape, kind.value as ImportKind, storage);
      chosen = { source, form };
      setChildren(mappingBox, form.element);
      run.disabled = false;
      status(importStatus, "", `${source.name}: ${source.shape.header.length} columns. ${form.remembered ? "Columns as you mapped this kind of file before" : "Check which column holds what"}, then Import.`);
    } catch (error) {
      failed(importStatus, error, "Nothing was changed.");
    }
  }
  file.addEventListener("change", () => file.files?.[0] && void take(() => fileSource(file.files![0])));
  usePaste.addEventListener("click", () => void take(() => fileSource(new File([paste.value], "pasted range", { type: "text/plain" }))));
  kind.addEventListener("change", () => chosen && void take(async () => chosen!.source));
  table.addEventListener("focus", () => void refresh());
  run.addEventListener("click", () => void importNow());

  async function importNow(): Promise<void> {
    if (!chosen) return;
    if (!table.value) return void status(importStatus, "error", "Load an allowances or expenses table first.");
    const mapping: FileMapping | string = chosen.form.read();
    if (typeof mapping === "string") return void status(importStatus, "error", mapping);
    const { source } = chosen;
    run.disabled = true;
    progress.hidden = false;
    progress.max = Math.max(1, source.size);
    status(importStatus, "busy", `Reading ${source.name}…`);
    try {
      const lines = await readImportFile(source.chunks(), source.shape.delimiter, mapping, source.shape.header, (bytes) => {
        progress.value = bytes;
        importStatus.textContent = `Reading ${source.name}: ${Math.round((100 * bytes) / Math.max(1, source.size))}%…`;
      });
      rememberMapping(storage, mapping, source.shape.header);
      status(importStatus, "busy", "Matching the lines to the table's records…");
      const done = await importLines(ctx.workbook, table.value, lines, { kind: mapping.kind, fileName: FILE_NAMES[mapping.kind] });
      setChildren(result, ...reportView(done.report, done.filledRows, source.name));
      status(importStatus, "ok", done.filledRows > 0 ? "Filled. Preview sync shows each row with the line its values came from." : "No row filled: see the lines below.");
      onImported();
      ctx.changed();
    } catch (error) {
      failed(importStatus, error, error instanceof ImportFileError ? "Nothing was changed." : "");
    } finally {
      progress.hidden = true;
      run.disabled = false;
    }
  }

  const element = h("section", { className: "section", "aria-labelledby": "h-import" },
    h("h2", { id: "h-import" }, "4. Import a bank or ERP file"),
    field("Into table", table), field("Kind of file", kind), field("File", file), paste, usePaste,
    mappingBox, h("div", { className: "row" }, run), progress, importStatus, result);
  void refresh();
  return { element, refresh };
}
