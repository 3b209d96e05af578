/**
 * The ledger of Excel's documented rules (docs/excel-checks.md) stays complete: every member of the adapter's
 * Excel boundary (src/sheets/excel/api.ts) and every Office API the functions, commands, taskpane and storage
 * call has a row; every row names its source; every row is enforced by a test that exists, or says why not.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ledgerRows as readLedger, type LedgerRow } from "../../tools/ledger/rows";
import { ROOT } from "../support/process";

/** The ledger's rows, each of five cells (`#`, member, rule, source, enforced by). */
function ledgerRows(): LedgerRow[] {
  const rows = readLedger(ROOT);
  for (const row of rows) expect([row.id, row.cells.length]).toEqual([row.id, 5]);
  return rows;
}

/** The adapter's Excel interfaces and what each stands for in Excel. */
const CLASS_OF: Record<string, string> = {
  XRangeFill: "RangeFill", XRangeFormat: "RangeFormat", XDataValidation: "DataValidation", XRange: "Range", XTable: "Table",
  XTableCollection: "TableCollection", XTableScopedCollection: "TableScopedCollection", XWorksheet: "Worksheet", XSetting: "Setting", XApplication: "Application",
  XWorksheetCollection: "WorksheetCollection", XWorkbook: "Workbook", XContext: "RequestContext", ExcelHost: "Excel",
  XRangeAreas: "RangeAreas", XRangeCollection: "RangeCollection",
};
/** Members typed inline as an object: what Excel class their own members belong to. */
const INLINE_CLASS: Record<string, string> = { font: "RangeFont", freezePanes: "WorksheetFreezePanes", tables: "TableCollection", settings: "SettingCollection", sort: "TableSort" };

/** The keys of an inline object type's own members (not its functions' parameter names). */
function topLevelKeys(body: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "(" || ch === "{" || ch === "<") depth++;
    else if (ch === ")" || ch === "}" || ch === ">") depth--;
    else if (depth === 0) {
      const m = /^(\w+)\??:/.exec(body.slice(i));
      if (m && !/\w/.test(body[i - 1] ?? "")) {
        keys.push(m[1]);
        i += m[0].length - 1;
      }
    }
  }
  return keys;
}

/** "Class.member" for every member of every interface of excel/api.ts, inline objects' members included. */
function boundaryMembers(): string[] {
  const source = readFileSync(join(ROOT, "src/sheets/excel/api.ts"), "utf8");
  const members: string[] = [];
  for (const block of source.matchAll(/^(?:export )?interface (\w+) \{([\s\S]*?)\n\}/gm)) {
    const cls = CLASS_OF[block[1]];
    expect([block[1], cls !== undefined]).toEqual([block[1], true]);
    for (const line of block[2].split("\n")) {
      const m = /^ {2}(?:readonly )?(\w+)\??:\s*(.*)$/.exec(line);
      if (!m) continue;
      members.push(`${cls}.${m[1]}`);
      const inline = /^\{(.*)\}/.exec(m[2].trim());
      if (inline) for (const inner of topLevelKeys(inline[1])) members.push(`${INLINE_CLASS[m[1]]}.${inner}`);
    }
  }
  return members;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Office APIs the add-in itself calls (not the workbench, the sandbox or the gateway, which Excel never runs). */
function officeCalls(): string[] {
  const files = filesUnder(join(ROOT, "src")).filter((f) => !/src[\\/](workbench|sandbox|gateway)[\\/]/.test(f));
  const found = new Set<string>();
  for (const file of files) {
    // Code only: comments and string literals name Office.js in prose.
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""').replace(/\/\/.*$/gm, "");
    for (const m of code.matchAll(/\bOffice((?:\??\.[a-z]\w*)+)/g)) found.add(`Office${m[1].replace(/\?/g, "").split(".").slice(0, 4).join(".")}`);
    // The global Office handed in as a parameter where it may be missing (taskpane/host-support.ts: `office.onReady()`).
    for (const m of code.matchAll(/\boffice\??\.(onReady)\(/g)) found.add(`Office.${m[1]}`);
    for (const m of code.matchAll(/\bCustomFunctions\.(Error|ErrorCode|associate)\b/g)) found.add(`CustomFunctions.${m[1]}`);
    for (const m of code.matchAll(/\bExcel\.(run|CalculationType)\b/g)) found.add(`Excel.${m[1]}`);
    if (/\bevent\.completed\(/.test(code)) found.add("event.completed");
    if (/\blocalStorage\b/.test(code)) found.add("localStorage");
  }
  return [...found].sort();
}

describe("the ledger of Excel's rules", () => {
  const rows = ledgerRows();

  it("has a row for every member of the Excel boundary (excel/api.ts), so a member added later cannot slip in unexamined", () => {
    const documented = new Set(rows.flatMap((r) => r.members));
    const members = boundaryMembers();
    expect(members.length).toBeGreaterThan(60);
    expect(members.filter((m) => !documented.has(m))).toEqual([]);
  });

  it("has a row for every Office API the functions, commands, taskpane and storage call", () => {
    const documented = rows.flatMap((r) => r.members);
    const calls = officeCalls();
    // Excel.run itself is called through the adapter's ExcelHost (the boundary's `Excel.run` rows), no longer by name.
    expect(calls).toEqual(expect.arrayContaining(["Office.onReady", "Office.actions.associate", "CustomFunctions.Error", "localStorage"]));
    expect(calls.filter((call) => !documented.some((m) => call === m || call.startsWith(`${m}.`) || m.startsWith(`${call}.`)))).toEqual([]);
  });

  it("names a source for every rule, and a test that exists (or why not) for every row; its counts are the ones it states", () => {
    expect(rows.map((r) => r.id).filter((id, i, all) => !/^R-[a-z0-9-]+$/.test(id) || all.indexOf(id) !== i)).toEqual([]);
    for (const row of rows) {
      expect([row.members, row.rule.length > 10]).toEqual([row.members, true]);
      expect([row.members, /d\.ts \d+|cf\.d\.ts \d+|ojs \d+|https:\/\/|office-js #\d+|article|sample|none \(strict\)/.test(row.source)]).toEqual([row.members, true]);
      if (row.enforcedBy.startsWith("n/a: ")) continue;
      const m = /^(test\/\S+) › "(.+)"$/.exec(row.enforcedBy);
      expect([row.members, row.enforcedBy, m !== null]).toEqual([row.members, row.enforcedBy, true]);
      const file = join(ROOT, m![1]);
      expect([m![1], existsSync(file)]).toEqual([m![1], true]);
      expect([m![1], m![2], readFileSync(file, "utf8").includes(m![2])]).toEqual([m![1], m![2], true]);
    }
    const enforced = rows.filter((r) => !r.enforcedBy.startsWith("n/a: ")).length;
    const stated = /ledger: (\d+) rows, (\d+) enforced by a named test, (\d+) not applicable/.exec(readFileSync(join(ROOT, "docs/excel-checks.md"), "utf8"));
    expect(stated && stated.slice(1).map(Number)).toEqual([rows.length, enforced, rows.length - enforced]);
  });
});
