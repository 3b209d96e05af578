/**
 * The rows of the ledger of Excel's rules (docs/excel-checks.md, "The ledger"), read from its tables. Each row is
 * keyed by its `#` cell (`R-…`): breaks.ts and the kept results name a row by that key, so a row can be reworded or
 * moved without losing its break.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const LEDGER_DOC = "docs/excel-checks.md";
const LEDGER_HEADER = "| # | Member | Rule | Source | Enforced by |";

/** One row of the ledger; `test` is its "Enforced by" cell parsed, absent for an "n/a: …" row. */
export interface LedgerRow {
  id: string;
  members: string[];
  rule: string;
  source: string;
  enforcedBy: string;
  test?: { file: string; name: string };
  /** Its cells, as split, for a caller that checks the table's shape. */
  cells: string[];
}

/** "test/x.test.ts › \"name\"" as a file and a name, or undefined when the cell is not in that form. */
export function parseTestRef(ref: string): { file: string; name: string } | undefined {
  const m = /^(test\/\S+) › "(.+)"$/.exec(ref);
  return m ? { file: m[1], name: m[2] } : undefined;
}

/** Every row of every table under the ledger's header, in the order of the document. */
export function ledgerRows(root: string): LedgerRow[] {
  const lines = readFileSync(join(root, LEDGER_DOC), "utf8").split("\n");
  const rows: LedgerRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== LEDGER_HEADER) continue;
    for (let j = i + 2; j < lines.length && lines[j].startsWith("|"); j++) {
      const cells = lines[j].split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
      const [id = "", member = "", rule = "", source = "", enforcedBy = ""] = cells;
      rows.push({
        id, rule, source, enforcedBy, cells,
        members: [...member.matchAll(/`([^`]+)`/g)].map((m) => m[1]),
        test: enforcedBy.startsWith("n/a: ") ? undefined : parseTestRef(enforcedBy),
      });
    }
  }
  return rows;
}
