/**
 * Issue 47: "the person maps its columns once ... and the mapping is remembered per kind of file". The taskpane's
 * mapping form (the real one, on linkedom's DOM in a child process: import-mapping-probe.ts) for a bank file the
 * person maps by hand, then a second file of that bank, another bank's file, an ERP's journal, and the bank's
 * header picked as an ERP journal; on a device storage that already holds the connection and its key.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../support/process";

jest.setTimeout(60_000);

interface Picked {
  remembered: boolean;
  shown: Record<string, string>;
  read: { kind: string; columns: Record<string, string>; decimal: string; dateOrder: string | null } | string;
}
interface Seen {
  firstBank: Picked;
  secondBank: Picked;
  otherBank: Picked;
  erp: Picked;
  bankHeaderAsErp: Picked;
  entries: [key: string, value: string][];
  rows: string[][];
  connection: { baseUrl: string; enterpriseId: string; apiKey: string };
  headers: { bank: string[]; otherBank: string[]; erp: string[] };
}

let seen: Seen;
beforeAll(async () => {
  const { stdout } = await promisify(execFile)(join(ROOT, "node_modules/.bin/tsx"), [join(__dirname, "import-mapping-probe.ts")], { cwd: ROOT });
  seen = JSON.parse(stdout.trim()) as Seen;
});

/** What the person chose for the first bank file: Narrative (not the guessed Details) as the reference, day first. */
const BANK_CHOICE = {
  "import-reference": "Narrative", "import-amount": "Amount", "import-currency": "Currency", "import-date": "Booking date",
  "import-person": "Payee", "import-value": "Bank ref", "import-decimal": "comma", "import-date-order": "dmy",
};

it("the first file of a bank is guessed from its header; the person's choices are what Import uses", () => {
  expect(seen.firstBank.remembered).toBe(false);
  expect(seen.firstBank.shown).toEqual(BANK_CHOICE);
  expect(seen.firstBank.read).toEqual({
    kind: "bank", decimal: "comma", dateOrder: "dmy",
    columns: { reference: "Narrative", amount: "Amount", currency: "Currency", date: "Booking date", person: "Payee", value: "Bank ref" },
  });
});

it("a second file of that bank (same header, other lines) comes mapped as the person mapped the first, date order included", () => {
  expect(seen.secondBank.remembered).toBe(true);
  expect(seen.secondBank.shown).toEqual(BANK_CHOICE);
  // Its 02/05/2026 dates read both ways: without the remembered answer the person would be asked again.
  expect(seen.secondBank.read).toEqual(seen.firstBank.read);
});

it("another bank's file, an ERP's journal, and the bank's header chosen as an ERP journal are not given the bank's mapping", () => {
  expect(seen.otherBank.remembered).toBe(false);
  expect(seen.otherBank.shown["import-reference"]).toBe("Details"); // its own header's guess, not the first bank's Narrative
  expect(seen.otherBank.shown["import-date"]).toBe("Value date");
  expect(seen.erp.remembered).toBe(false);
  expect(seen.erp.read).toEqual({
    kind: "erp", decimal: "dot", dateOrder: "mdy",
    columns: { reference: "Reference", amount: "Debit", currency: "Currency", date: "Posting Date", person: "Employee", value: "Document No." },
  });
  // Kinds are remembered apart: the bank's header as an ERP journal starts from the guess, and its date order is asked.
  expect(seen.bankHeaderAsErp.remembered).toBe(false);
  expect(seen.bankHeaderAsErp.shown["import-reference"]).toBe("Details");
  expect(seen.bankHeaderAsErp.shown["import-date-order"]).toBe("");
  expect(seen.bankHeaderAsErp.read).toMatch(/^Choose how the dates are written/);
});

it("what is remembered is column names and choices only, under spendsync.import.<kind>.<header>: no line of a file, nothing of the connection", () => {
  const keys = seen.entries.map(([key]) => key);
  // Three mappings read (the bank's, the other bank's, the ERP's); the bank's second file rewrote its own.
  expect(keys).toHaveLength(3);
  for (const key of keys) expect(key).toMatch(/^spendsync\.import\.(bank|erp)\./);
  const allHeaders = new Set([...seen.headers.bank, ...seen.headers.otherBank, ...seen.headers.erp]);
  for (const [key, value] of seen.entries) {
    const saved = JSON.parse(value) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual(["columns", "dateOrder", "decimal", "kind"]);
    for (const column of Object.values(saved.columns as Record<string, string>)) expect(allHeaders.has(column)).toBe(true);
    const text = key + value;
    for (const secret of Object.values(seen.connection)) expect(text).not.toContain(secret);
    // No field of any line (a payee, an amount, a payment id, a date, a reference) is kept.
    for (const cell of seen.rows.flat()) if (!allHeaders.has(cell)) expect(text).not.toContain(cell);
  }
});
