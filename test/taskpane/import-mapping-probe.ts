/**
 * Run by import-mapping-is-remembered.test.ts in its own Node process (tsx): linkedom's DOM needs ESM-only
 * packages jest cannot load. Shows the taskpane's import mapping form (src/taskpane/import-mapping.ts) for files
 * as a person picks them, on a device storage that already holds a connection (its key), and prints one JSON
 * line: what the form showed for each file, and every storage entry the import wrote.
 */
import { parseHTML } from "linkedom";
import { Session, memoryStorage, type KeyValueStorage } from "../../src/api";
import { sniffShape, type ImportKind } from "../../src/domain/import";
import { mappingForm, rememberMapping } from "../../src/taskpane/import-mapping";

const CONNECTION = { baseUrl: "https://spend.example.test/api", enterpriseId: "6c1f0a52-9d3e-4b8e-a1f4-0d2b7c9e5a11", apiKey: "sk_live_PROBE_7f3c9a1e5b" };

/** A bank's export: two columns could be the reference (Details is guessed, the person picks Narrative); 03/04 dates are asked. */
const BANK_HEADER = ["Booking date", "Payee", "Details", "Narrative", "Amount", "Currency", "Bank ref", "Balance"];
const BANK_FILES = [
  [["03/04/2026", "Ana Perez", "Transfer 88412", "EXP-1001", "1.234,50", "EUR", "TRF-55120", "9.876,00"],
    ["05/04/2026", "Luis Soto", "Transfer 88413", "EXP-1002", "87,20", "EUR", "TRF-55121", "9.788,80"]],
  [["02/05/2026", "Marta Diaz", "Transfer 90001", "EXP-2040", "310,00", "EUR", "TRF-61007", "4.100,10"],
    ["04/05/2026", "Jorge Rios", "Transfer 90002", "EXP-2041", "45,99", "EUR", "TRF-61008", "4.054,11"]],
];
/** Another bank's export (another header): the first bank's mapping is not its own. */
const OTHER_BANK_HEADER = ["Value date", "Counterparty", "Details", "Narrative", "Amount", "Currency", "Payment ID"];
const OTHER_BANK_ROWS = [["2026-04-07", "Ana Perez", "SEPA 1", "EXP-1003", "12,00", "EUR", "PAY-0001"]];
/** An ERP's journal export. */
const ERP_HEADER = ["Document No.", "Posting Date", "Reference", "Description", "Debit", "Currency", "Employee"];
const ERP_ROWS = [["JV-2026-0411", "04/13/2026", "EXP-1001", "Expense report", "1,234.50", "EUR", "Ana Perez"]];

/** linkedom's select has a value getter only: the browser's (the selected option's value; setting it selects the option). */
function browserSelectValue(window: { HTMLSelectElement: { prototype: object } }): void {
  const none = new WeakSet<object>();
  Object.defineProperty(window.HTMLSelectElement.prototype, "value", {
    configurable: true,
    get(this: HTMLSelectElement) {
      if (none.has(this)) return "";
      const options = [...this.querySelectorAll("option")];
      return (options.find((o) => o.hasAttribute("selected")) ?? options[0])?.getAttribute("value") ?? "";
    },
    set(this: HTMLSelectElement, value: string) {
      let found = false;
      for (const o of this.querySelectorAll("option")) {
        const pick: boolean = !found && o.getAttribute("value") === value;
        o.toggleAttribute("selected", pick);
        found ||= pick;
      }
      if (found) none.delete(this);
      else none.add(this);
    },
  });
}

const csv = (header: string[], rows: string[][], delimiter: string) => [header, ...rows].map((r) => r.join(delimiter)).join("\n");

/** Records every key written, over the device's storage. */
function recording(): KeyValueStorage & { written: Set<string>; entries(): [string, string][] } {
  const inner = memoryStorage();
  const written = new Set<string>();
  return {
    written,
    getItem: (k) => inner.getItem(k),
    setItem: (k, v) => {
      written.add(k);
      inner.setItem(k, v);
    },
    removeItem: (k) => inner.removeItem(k),
    entries: () => [...written].map((k): [string, string] => [k, inner.getItem(k) ?? ""]),
  };
}

async function main() {
  const { window } = parseHTML("<!doctype html><html><body></body></html>");
  Object.assign(globalThis, { document: window.document });
  browserSelectValue(window as unknown as { HTMLSelectElement: { prototype: object } });
  const storage = recording();
  await new Session(storage).connectTested(CONNECTION, async () => true);
  const before = new Set(storage.written);

  /** The person picks a file: what the form shows (each field's column, the marks), and what Import would use. */
  const pick = (header: string[], rows: string[][], delimiter: string, kind: ImportKind, choose?: (form: HTMLElement) => void) => {
    const shape = sniffShape(csv(header, rows, delimiter));
    const form = mappingForm(shape, kind, storage);
    choose?.(form.element);
    const shown = Object.fromEntries([...form.element.querySelectorAll("select")].map((s) => [s.id, s.value]));
    const read = form.read();
    // The section remembers the mapping once the file was read whole (import-section.ts, importNow).
    if (typeof read !== "string") rememberMapping(storage, read, shape.header);
    return { remembered: form.remembered, shown, read };
  };
  const set = (form: HTMLElement, id: string, value: string) => {
    (form.querySelector(`#${id}`) as HTMLSelectElement).value = value;
  };

  const firstBank = pick(BANK_HEADER, BANK_FILES[0], ";", "bank", (form) => {
    set(form, "import-reference", "Narrative");
    set(form, "import-date-order", "dmy");
  });
  const secondBank = pick(BANK_HEADER, BANK_FILES[1], ";", "bank");
  const otherBank = pick(OTHER_BANK_HEADER, OTHER_BANK_ROWS, ";", "bank");
  const erp = pick(ERP_HEADER, ERP_ROWS, ",", "erp");
  const bankHeaderAsErp = pick(BANK_HEADER, BANK_FILES[1], ";", "erp");
  const entries = storage.entries().filter(([k]) => !before.has(k));
  process.stdout.write(`${JSON.stringify({ firstBank, secondBank, otherBank, erp, bankHeaderAsErp, entries, rows: [...BANK_FILES.flat(), ...OTHER_BANK_ROWS, ...ERP_ROWS], connection: CONNECTION, headers: { bank: BANK_HEADER, otherBank: OTHER_BANK_HEADER, erp: ERP_HEADER } })}\n`);
}

void main();
