/** The taskpane's sentence after a load counts what the user must look at: read-only rows among them. */
import type { LoadReport } from "../../src/sheets";
import { loadNeedsAttention, loadSentence } from "../../src/taskpane/load-sentence";

const report = (over: Partial<LoadReport> = {}): LoadReport => ({
  tableName: "SpendExpenses_1", sheetName: "Expenses 1", count: 1000, added: 1000, updated: 0, removed: 0, userColumns: [], keptEdits: 0,
  conflicts: 0, discardedEdits: 0, malformed: 0, amounts: { unknownCurrencies: [], finer: 0, firstFiner: null }, typed: { kept: [], replaced: 0 }, ...over,
});

it("a clean load says what it wrote, and is no warning", () => {
  expect(loadSentence(report())).toBe("Loaded 1,000 rows into SpendExpenses_1 (1000 new, 0 updated, 0 no longer returned by this query).");
  expect(loadNeedsAttention(report())).toBe(false);
});

it("one malformed record is counted, said read-only, and makes the line a warning", () => {
  expect(loadSentence(report({ malformed: 1 }))).toBe(
    "Loaded 1,000 rows into SpendExpenses_1 (1000 new, 0 updated, 0 no longer returned by this query). 1 record did not match the API: it is loaded read-only, and its Sync status says which field is wrong.",
  );
  expect(loadNeedsAttention(report({ malformed: 1 }))).toBe(true);
});

it("several are counted with the edits a refresh kept", () => {
  expect(loadSentence(report({ malformed: 1200, keptEdits: 2, conflicts: 1, updated: 1000, added: 0 }))).toBe(
    "Loaded 1,000 rows into SpendExpenses_1 (0 new, 1000 updated, 0 no longer returned by this query). 1,200 records did not match the API: they are loaded read-only, and their Sync status says which field is wrong. Your unsynced edits: 2 kept, 1 also changed on the server (flagged in Sync status).",
  );
  expect(loadNeedsAttention(report({ conflicts: 1 }))).toBe(true);
});

it("a refresh names the typed values it kept or replaced, and a whole rewrite and why", () => {
  const typed = { id: "e-1", row: 4, header: "Amount", typed: 999, service: 120.5 };
  expect(loadSentence(report({ added: 0, updated: 3, typed: { kept: [typed], replaced: 0 }, refreshed: { whole: false } }))).toBe(
    "Loaded 1,000 rows into SpendExpenses_1 (0 new, 3 updated, 0 no longer returned by this query). 1 value you typed over the service's cells of changed records kept, and marked (it is not synced; Preview names it).",
  );
  expect(loadNeedsAttention(report({ typed: { kept: [typed], replaced: 0 } }))).toBe(true);
  expect(loadSentence(report({ added: 0, typed: { kept: [], replaced: 2 }, refreshed: { whole: true, why: "it was loaded by an earlier version of Spend Sync" } }))).toBe(
    "Loaded 1,000 rows into SpendExpenses_1 (0 new, 0 updated, 0 no longer returned by this query). 2 values you typed over the service's cells replaced by the service's, as you chose. " +
      "The whole table was written again, as it was loaded by an earlier version of Spend Sync; your own columns were written back as values and formulas. From now on Refresh writes only what changed.",
  );
  expect(loadNeedsAttention(report({ refreshed: { whole: false } }))).toBe(false);
});
