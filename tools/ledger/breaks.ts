/**
 * How to break each enforced rule of the ledger (docs/excel-checks.md, "The ledger"): a small patch of the
 * in-memory Excel, the add-in, or (for a rule Microsoft's client enforces) the client as the tests load it.
 * `npm run ledger` applies each in turn and runs the row's "Enforced by" test, which must then fail;
 * test/docs/ledger-breaks.test.ts checks statically that every enforced row has a break, that each break's
 * `find` text occurs exactly once in its file, and that its `test` is its row's.
 *
 * A break: { row: the row's `#` key, file: a path from the repository's root, find: text that occurs exactly
 * once in that file, replace: what it becomes, test: the row's "Enforced by" cell, exactly }.
 */
export interface Break {
  row: string;
  file: string;
  find: string;
  replace: string;
  test: string;
}

const HOST = "src/workbench/fake-excel/protocol/host.ts";
const WORKSHEET = "src/workbench/fake-excel/protocol/worksheet.ts";
const TABLE = "src/workbench/fake-excel/protocol/table.ts";
const RANGE = "src/workbench/fake-excel/protocol/range.ts";
const FORMAT = "src/workbench/fake-excel/protocol/range-format.ts";
const VALIDATION = "src/workbench/fake-excel/protocol/data-validation.ts";
const WORKBOOK = "src/workbench/fake-excel/protocol/workbook.ts";
const API_SETS = "src/workbench/fake-excel/protocol/api-sets.ts";
const TYPING = "src/workbench/fake-excel/typing.ts";
/** Where the tests load Microsoft's client: a break there patches the client's own text as it is loaded. */
const CLIENT = "test/support/office-js-environment.js";
const CLIENT_SOURCE = 'new Script(readFileSync(file, "utf8")';
/** A break of Microsoft's client: `find` in its text (it must be there) becomes `replace`. */
const client = (find: string, replace: string) =>
  `new Script(((text) => { if (!text.includes(${JSON.stringify(find)})) throw new Error("ledger break: client text not found"); return text.replace(${JSON.stringify(find)}, ${JSON.stringify(replace)}); })(readFileSync(file, "utf8"))`;

const HOST_TEST = "test/workbench/excel-host.test.ts";
const FILL_TEST = "fill.color = '' and fill.clear() both reset the background";
const ADAPTER_TEST = "test/sheets/excel-adapter.test.ts";
const PROFILES_TEST = "test/workbench/profiles.test.ts";
const FUNCTIONS_TEST = "test/functions/functions.test.ts";
const MANIFEST_TEST = "test/manifest/manifest.test.ts › \"manifest.xml passes\"";
const t = (file: string, name: string) => `${file} › "${name}"`;

export const BREAKS: readonly Break[] = [
  // Excel.run, the request context, load and sync
  { row: "R-excel-run-false-absent-user", file: HOST, find: "if ((flags & FLAG_DELAY_FOR_CELL_EDIT) === 0) {", replace: "if (false) {", test: t(HOST_TEST, "a batch fails while the user edits a cell") },
  { row: "R-excel-run-true-batch-delayed", file: "src/sheets/excel/runs.ts", find: "setTimeout(() => this.setWaiting(true), WAIT_NOTICE_MS)", replace: "setTimeout(() => this.setWaiting(false), WAIT_NOTICE_MS)", test: t(ADAPTER_TEST, "turns the wait notice on after WAIT_NOTICE_MS") },
  { row: "R-excel-run-true-batch-delayed", file: "src/sheets/excel/runs.ts", find: "{ delayForCellEdit: true }", replace: "{ delayForCellEdit: false }", test: t(ADAPTER_TEST, "turns the wait notice on after WAIT_NOTICE_MS") },
  { row: "R-excel-run-office-sends-delay", file: "src/workbench/office-js/office-host.ts", find: "Object.fromEntries(Object.entries(profile.sets).map(", replace: "Object.fromEntries([...Object.entries(profile.sets), [\"DelayForCellEdit\", \"1.1\"]].map(", test: t(HOST_TEST, "where the host does not report DelayForCellEdit") },
  { row: "R-excel-run-when-promise-resolved", file: HOST, find: "this.references.delete(String(args[0]));", replace: "void args;", test: t(HOST_TEST, "a range reused in a later Excel.run gets InvalidObjectPath") },
  { row: "R-excel-run-batch-returns-promise", file: CLIENT, find: CLIENT_SOURCE, replace: client('($.isNullOrUndefined(e)||"function"!=typeof e.then)&&$.throwError(Z.runMustReturnPromise)', "false"), test: t(HOST_TEST, "a batch that returns no promise") },
  { row: "R-excel-run-cannot-use-object", file: CLIENT, find: CLIENT_SOURCE, replace: client("if(e&&t&&t._context!==e)throw", "if(false)throw"), test: t(HOST_TEST, "refuses an object of one request context in another") },
  {
    row: "R-requestcontext-sync-queued-actions-run", file: HOST,
    find: "        } catch (error) {\n          throw Object.assign(asExcelError(error), { actionIndex: index });\n        }\n      });",
    replace: "        } catch (error) {\n          failed ??= Object.assign(asExcelError(error), { actionIndex: index });\n        }\n      });\n      if (failed) throw failed;",
    test: t(HOST_TEST, "an action that fails stops its request"),
  },
  { row: "R-requestcontext-sync-failed-request-rejects", file: HOST, find: "return { Results: results, Error: { Code: error.code,", replace: 'return { Results: results, Error: { Code: "GeneralException",', test: t(HOST_TEST, "the error names Excel's code") },
  { row: "R-requestcontext-sync-excel-web-payload", file: HOST, find: "if (record.bytes > PAYLOAD_LIMIT_BYTES) {", replace: "if (false) {", test: t(HOST_TEST, "over 5,000,000 either is refused") },
  { row: "R-requestcontext-sync-excel-web-payload", file: HOST, find: "if (responseBytes > PAYLOAD_LIMIT_BYTES) {", replace: "if (false) {", test: t(HOST_TEST, "over 5,000,000 either is refused") },
  { row: "R-requestcontext-workbook-represents-excel-application", file: WORKBOOK, find: "Application: () => new ApplicationObject(this.host, this.calculation),", replace: "Application: () => new ApplicationObject(this.host, { suspended: false, suspensions: 0 }),", test: t(HOST_TEST, "suspended calculation stays pending") },
  { row: "R-range-load-you-must-call", file: CLIENT, find: CLIENT_SOURCE, replace: client("n.throwIfNotLoaded=function(e,t,r,i){if(!i&&", "n.throwIfNotLoaded=function(e,t,r,i){if(false&&"), test: t(HOST_TEST, "a property read before load and sync throws PropertyNotLoaded") },
  { row: "R-range-load-range-limited-five", file: RANGE, find: "if (rowCount * columnCount > READ_CELL_LIMIT) {", replace: "if (false) {", test: t(HOST_TEST, "reading more than 5,000,000 cells at once fails with RangeExceedsLimit") },
  { row: "R-table-isnullobject-you-must-call", file: HOST, find: "if (object.isNull) return null;\n        const select", replace: "const select", test: t(HOST_TEST, "loading a property of a null object answers null") },
  { row: "R-table-isnullobject-setting-property-calling", file: HOST, find: "if (object.isNull) object.call(action.Name, args);", replace: "if (object.isNull) return null;", test: t(HOST_TEST, "acting on it is refused") },

  // Workbook, worksheets, settings
  { row: "R-workbook-worksheets-gets-worksheet-object", file: WORKSHEET, find: "GetItemOrNullObject: (key) => {\n          const sheet = this.find(key);", replace: "GetItemOrNullObject: (key) => {\n          const sheet = this.find(key) ?? this.item(key);", test: t(HOST_TEST, "isNullObject is known after any sync") },
  { row: "R-worksheetcollection-add-worksheet-will-added", file: WORKSHEET, find: "if (other && other !== self) throw", replace: "if (other && other.name === name && other !== self) throw", test: t(HOST_TEST, "is unique in any case") },
  { row: "R-worksheetcollection-add-name-must-fewer", file: WORKSHEET, find: "name.length > 31", replace: "name.length > 40", test: t(HOST_TEST, "a sheet's has at most 31 characters") },
  { row: "R-worksheetcollection-add-name-must-fewer", file: WORKSHEET, find: "const SHEET_NAME_FORBIDDEN = /[\\\\/?*[\\]:]/;", replace: "const SHEET_NAME_FORBIDDEN = /[\\\\/?*]/;", test: t(HOST_TEST, "a sheet's has at most 31 characters") },
  { row: "R-worksheetcollection-load-gets-loaded-child", file: WORKSHEET, find: "return this.host.model.sheets.map((sheet) => this.host.worksheet(sheet));", replace: "return this.host.model.sheets.filter((sheet) => sheet.visibility !== \"VeryHidden\").map((sheet) => this.host.worksheet(sheet));", test: t(HOST_TEST, "worksheets.load lists every sheet in tab order, hidden and very hidden ones too") },
  { row: "R-workbook-tables-gets-table-name", file: TABLE, find: "GetItemOrNullObject: (key) => {\n          const t = this.find(key);", replace: "GetItemOrNullObject: (key) => {\n          const t = this.find(key) ?? this.item(key);", test: t(HOST_TEST, "loading a property of a null object answers null") },
  { row: "R-tablecollection-getitem-gets-table-name", file: TABLE, find: "if (!t) throw new FakeExcelError(\"ItemNotFound\", `The table '${String(key)}' doesn't exist.`);", replace: "if (!t) return new NullHostObject(\"Table\", String(key));", test: t(HOST_TEST, "tables.getItem of a name no table has fails its request with ItemNotFound there") },
  { row: "R-workbook-settings-sets-adds-specified", file: WORKBOOK, find: "this.host.model.settings.set(key, jsonValue(value));", replace: "if (!this.host.model.settings.has(key)) this.host.model.settings.set(key, jsonValue(value));", test: t(HOST_TEST, "add sets or replaces a value") },
  { row: "R-setting-value-represents-value-stored", file: WORKBOOK, find: "get: () => (this.present(), settings.get(this.key)),", replace: "get: () => (this.present(), JSON.stringify(settings.get(this.key))),", test: t(HOST_TEST, "a setting's value reads back as it was added") },

  // Worksheet
  { row: "R-worksheet-delete-worksheet-visibility-set", file: WORKSHEET, find: "if (sheet.visibility === \"VeryHidden\") {", replace: "if (false) {", test: t(HOST_TEST, "can't be deleted until it is hidden or visible") },
  { row: "R-worksheet-delete-last-visible-sheet", file: WORKSHEET, find: "if (visibility !== \"Visible\" && !model.sheets.some(", replace: "if (false && !model.sheets.some(", test: t(HOST_TEST, "a very hidden sheet needs another visible one") },
  { row: "R-worksheet-visibility-excelapi-reading-visibility", file: API_SETS, find: "\"Worksheet.visibility\": { get: \"1.1\", set: \"1.2\" },", replace: "\"Worksheet.visibility\": { get: \"1.1\", set: \"1.1\" },", test: t("test/workbench/api-sets.test.ts", "setting a sheet's visibility needs ExcelApi 1.2") },
  { row: "R-worksheet-name-read-after-load", file: WORKSHEET, find: "set: (name) => void (this.live().name = checkSheetName(this.host, name, this.sheet))", replace: "set: (name) => void (this.live().id = this.live().name = checkSheetName(this.host, name, this.sheet))", test: t(HOST_TEST, "a sheet renamed keeps its id") },
  { row: "R-worksheet-activate-activate-worksheet-excel", file: WORKSHEET, find: "if (sheet.visibility !== \"Visible\") throw new FakeExcelError(\"InvalidOperation\", \"A hidden sheet can't be activated.\");", replace: "", test: t(HOST_TEST, "a hidden sheet can't be activated") },
  { row: "R-worksheet-getrangebyindexes-zero-indexed-start", file: RANGE, find: "|| area.row + area.rowCount > SHEET_ROWS || area.column + area.columnCount > SHEET_COLUMNS) {", replace: ") {", test: t(HOST_TEST, "a range outside the sheet's 1,048,576 rows and 16,384 columns is refused") },
  { row: "R-worksheet-tables-table-cannot-added", file: TABLE, find: "if (model.tables.some((other) => other.sheet === sheet && overlaps(other.area, area))) {", replace: "if (false) {", test: t(HOST_TEST, "tables: headers made unique, no overlap") },
  { row: "R-tablecollection-add-address-does-contain", file: TABLE, find: ": this.sheet ?? model.activeSheet;", replace: ": this.sheet ?? model.sheets[0];", test: t(HOST_TEST, "a table added without a sheet name is on the active sheet") },
  { row: "R-tablecollection-load-sheet-tables-load", file: TABLE, find: "return this.host.model.tables.filter((t) => this.sheet === undefined || t.sheet === this.sheet).map", replace: "return this.host.model.tables.filter(() => this.sheet === undefined).map", test: t("test/sheets/pipelined-load.test.ts", "never replaces a sheet of its snapshot's name that holds another table") },
  { row: "R-worksheet-freezepanes-freeze-top-row", file: WORKSHEET, find: "if (this.sheet.visibility !== \"Visible\") throw", replace: "if (false) throw", test: t(HOST_TEST, "frozen panes need a visible sheet") },

  // Range
  { row: "R-range-values-returned-value-starts", file: TYPING, find: "const FORMULA_START = /^[\\s]*[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20]/;", replace: "const FORMULA_START = /^[=]/;", test: t(HOST_TEST, "through values, formula prefixes become formulas even in a Text cell") },
  { row: "R-range-values-data-returned-could", file: TYPING, find: "cell.value = \"#VALUE!\";\n      cell.rich = structuredClone(value)", replace: "cell.value = String(typed.text);\n      cell.rich = structuredClone(value)", test: t(HOST_TEST, "values reads their basic value and valueTypes says Error") },
  { row: "R-range-values-null-isn-valid", file: TYPING, find: "  if (value === null) return;\n  if (value === undefined)", replace: "  if (value === null) value = \"\";\n  if (value === undefined)", test: t(HOST_TEST, "null in a 2-D array leaves a cell's value and format alone") },
  { row: "R-range-values-null-isn-valid", file: RANGE, find: "if (!Array.isArray(input) || grid.length !== rowCount", replace: "if (!Array.isArray(input)) input = [[input]];\n    if (!Array.isArray(input) || grid.length !== rowCount", test: t(HOST_TEST, "null in a 2-D array leaves a cell's value and format alone") },
  { row: "R-range-values-writes-over-500", file: RANGE, find: "if (rows !== area.rowCount || columns !== area.columnCount) {", replace: "if (true) {", test: t(HOST_TEST, "writes over 1,500 cells are split by Office.js") },
  { row: "R-range-valuesasjson-supports-data-types", file: TYPING, find: "      cell.value = typed.basicValue;\n      // A string of no characters", replace: "      writeValue(cell, typed.basicValue);\n      // A string of no characters", test: t(HOST_TEST, "a String is exactly that text; null there is refused") },
  { row: "R-range-valuesasjson-excelapi-office-2021", file: API_SETS, find: "\"Range.valuesAsJson\": \"1.16\",", replace: "\"Range.valuesAsJson\": \"1.1\",", test: t("test/workbench/api-sets.test.ts", "a valuesAsJson write is refused by Excel") },
  { row: "R-range-valuesasjson-value-leaves-truly", file: TYPING, find: "    case \"Empty\":\n      cell.value = \"\";", replace: "    case \"Empty\":\n      cell.value = \"\";\n      cell.emptyText = true;", test: t(HOST_TEST, "an Empty write leaves a truly blank cell") },
  { row: "R-range-valuesasjson-apis-which-would", file: TYPING, find: "if (typed.writable === false) return;", replace: "", test: t(HOST_TEST, "writable: false is ignored without an error") },
  { row: "R-range-valuesasjson-malformed-cell-value", file: TYPING, find: "new FakeExcelError(\"GeneralException\", message);", replace: "new FakeExcelError(\"InvalidArgument\", message);", test: t(HOST_TEST, "a malformed cell value is a GeneralException") },
  { row: "R-range-valuesasjson-errors-entities-linked", file: TYPING, find: "cell.rich = structuredClone(value) as Excel.EntityCellValue;", replace: "cell.rich = undefined;", test: t(HOST_TEST, "errors and entities round-trip whole through valuesAsJson") },
  { row: "R-range-valuesasjson-cell-holds-most", file: TYPING, find: "if (text.length > CELL_TEXT_LIMIT) {", replace: "if (text.length > CELL_TEXT_LIMIT + 1) {", test: t(HOST_TEST, "a cell holds 32,767 characters at most") },
  { row: "R-range-valuetypes-specifies-type-data", file: TYPING, find: "if (value === \"\" && cell?.formula === undefined && !cell?.emptyText) return \"Empty\";", replace: "if (value === \"\" && cell?.formula === undefined) return \"Empty\";", test: t("test/sheets/self-test.test.ts", "fails in an Excel where an Empty write leaves something in the cell") },
  { row: "R-range-formulas-cell-has-formula", file: RANGE, find: "get: () => this.grid((cell) => cell?.formula ?? valueOf(sheet, cell))", replace: "get: () => this.grid((cell) => cell?.formula ?? \"\")", test: t(HOST_TEST, "formulas reads a cell's formula, or its value where it has none") },
  { row: "R-range-numberformat-represents-excel-number", file: RANGE, find: "get: () => this.grid((cell) => cell?.numberFormat ?? \"General\"),", replace: "get: () => this.grid(() => \"General\"),", test: t(HOST_TEST, "numberFormat reads each cell's own format") },
  { row: "R-range-values-null-isn-valid", file: RANGE, find: "cell.numberFormat = format === \"\" ? \"General\" : format;", replace: "cell.numberFormat = format === \"\" ? cell.numberFormat : format;", test: t(HOST_TEST, "null in a 2-D array leaves a cell's value and format alone") },
  { row: "R-range-rowcount-read-zero-indexed", file: RANGE, find: "RowCount: readOnly(() => area.rowCount),", replace: "RowCount: readOnly(() => area.rowCount + 1),", test: t(HOST_TEST, "a range's rowIndex and columnIndex count from zero") },
  { row: "R-range-rowcount-read-zero-indexed", file: RANGE, find: "ColumnCount: readOnly(() => area.columnCount),", replace: "ColumnCount: readOnly(() => area.rowCount),", test: t(HOST_TEST, "a range's rowIndex and columnIndex count from zero") },
  { row: "R-range-rowcount-read-zero-indexed", file: RANGE, find: "RowIndex: readOnly(() => area.row),", replace: "RowIndex: readOnly(() => area.row + 1),", test: t(HOST_TEST, "a range's rowIndex and columnIndex count from zero") },
  { row: "R-range-rowcount-read-zero-indexed", file: RANGE, find: "ColumnIndex: readOnly(() => area.column),", replace: "ColumnIndex: readOnly(() => area.column + 1),", test: t(HOST_TEST, "a range's rowIndex and columnIndex count from zero") },
  { row: "R-rangefill-clear-resets-range-background", file: FORMAT, find: "methods: { Clear: () => (this.range.eachCell((cell) => (cell.fill = undefined)), null) },", replace: "methods: { Clear: () => null },", test: t(HOST_TEST, FILL_TEST) },
  { row: "R-rangeformat-columnwidth-specifies-width-columns", file: FORMAT, find: "|| width < 0)", replace: ")", test: t(HOST_TEST, "widths and fills take only what Excel takes") },
  { row: "R-range-datavalidation-you-can-use", file: VALIDATION, find: "if (list.source.length > LIST_SOURCE_LIMIT)", replace: "if (false)", test: t(HOST_TEST, "a list source over 255 characters is refused") },
  { row: "R-datavalidation-rule-setting-rule-over", file: VALIDATION, find: "if (other) throw", replace: "if (false) throw", test: t(HOST_TEST, "refused until cleared") },
  { row: "R-datavalidation-clear-two-ranges-aren", file: VALIDATION, find: "const kept = sheet.validations.flatMap((v) => subtractArea(v.area, area).map((rest) => ({ area: rest, list: v.list })));", replace: "const kept = sheet.validations.filter((v) => !overlaps(v.area, area));", test: t(HOST_TEST, "clearing data validation on part of a validated range keeps the rule on the rest") },
  { row: "R-range-clear-excel-web-attempted", file: RANGE, find: "if (currentProfile().platform === \"OfficeOnline\" && cells > WEB_OPERATION_CELL_LIMIT) {", replace: "if (false) {", test: t(HOST_TEST, "refuses an operation on more than 33,554,000 cells") },
  { row: "R-range-select-selects-specified-range", file: RANGE, find: "if (this.host.model.activeSheet !== sheet) throw", replace: "if (false) throw", test: t(HOST_TEST, "select needs the range's sheet active") },
  { row: "R-range-getusedrangeornullobject-returns-used-range", file: RANGE, find: "const used = sheet.usedArea(valuesOnly === true, area);", replace: "const used = sheet.usedArea(false, area);", test: t(HOST_TEST, "a range's used part (getUsedRangeOrNullObject, ExcelApi 1.4)") },
  { row: "R-worksheet-getusedrangeornullobject-used-range-smallest", file: WORKSHEET, find: "const used = this.live().usedArea(valuesOnly === true);", replace: "const used = this.live().usedArea(false);", test: t(HOST_TEST, "a sheet's used range (Worksheet.getUsedRangeOrNullObject, ExcelApi 1.4)") },

  // Table
  { row: "R-table-name-excel-naming-rules", file: TABLE, find: "|| LOOKS_LIKE_A_CELL.test(name) ", replace: "", test: t(HOST_TEST, "a table's is Excel's kind of name") },
  { row: "R-table-name-excel-naming-rules", file: TABLE, find: "const clash = model.table(name);", replace: "const clash = model.tables.find((x) => x.name === name);", test: t(HOST_TEST, "a table's is Excel's kind of name") },
  { row: "R-table-style-tablestylelight1-through-tablestylelight21", file: TABLE, find: "if (!m || Number(m[2]) < 1 || Number(m[2]) > most[m[1] as keyof typeof most])", replace: "if (!m)", test: t(HOST_TEST, "a table style outside Excel's names is refused") },
  { row: "R-table-worksheet-worksheet-containing-current", file: TABLE, find: "navigation: { Worksheet: () => this.host.worksheet(this.live().sheet) },", replace: "navigation: { Worksheet: () => this.host.worksheet(this.host.model.activeSheet!) },", test: t(ADAPTER_TEST, "a table on another sheet than the active one is resized there") },
  { row: "R-table-getheaderrowrange-body-excludes-header", file: TABLE, find: "rowCount: a.rowCount - 1 - (t.showTotals ? 1 : 0) })", replace: "rowCount: a.rowCount - 1 })", test: t(HOST_TEST, "a Total Row outside the body") },
  { row: "R-table-showtotals-total-row-outside", file: TABLE, find: "rowCount: a.rowCount - 1 - (t.showTotals ? 1 : 0) })", replace: "rowCount: a.rowCount - 1 })", test: t(ADAPTER_TEST, "a Total Row is never read or overwritten as data, and survives a rewrite") },
  { row: "R-table-resize-new-range-must", file: TABLE, find: "if (area.row !== t.area.row || !overlaps(area, t.area)) {", replace: "if (false) {", test: t(HOST_TEST, "resize keeps the header row and overlaps") },
  { row: "R-table-resize-excelapi-refused-client", file: API_SETS, find: "\"Table.resize\": \"1.13\",", replace: "\"Table.resize\": \"1.1\",", test: t("test/workbench/api-sets.test.ts", "Table.resize, ExcelApi 1.13") },
  { row: "R-table-delete-deletes-table-cells", file: TABLE, find: "model.tables.splice(model.tables.indexOf(this.live()), 1);", replace: "const gone = this.live();\n          for (let r = gone.area.row; r < gone.area.row + gone.area.rowCount; r++) gone.sheet.cells.delete(r);\n          model.tables.splice(model.tables.indexOf(gone), 1);", test: t(HOST_TEST, "a deleted table leaves its cells") },

  // Application and calculation
  { row: "R-application-suspendapicalculationuntilnextsync-once-set-developer", file: HOST, find: "if (calculation.suspended) this.model.recalculationPending = true;", replace: "", test: t(HOST_TEST, "suspended calculation stays pending until a later request calculates") },
  { row: "R-application-calculate-recalculate-full-fullrebuild", file: WORKBOOK, find: "if (!CALCULATION_TYPES.includes(String(type))) throw", replace: "if (false) throw", test: t(HOST_TEST, "Application.calculate takes Recalculate, Full or FullRebuild only") },
  { row: "R-excel-calculationtype-refresh-data-recalculates", file: "src/shared-runtime.ts", find: "context.workbook.application.calculate(Excel.CalculationType.full);", replace: "context.workbook.application.calculate(Excel.CalculationType.recalculate);", test: t("test/shared-runtime.test.ts", "the taskpane's recalculation marks every cell dirty (CalculationType.full)") },

  // Rows whose test is the add-in's own (the sheets, the sync, the functions, the runtime page)
  { row: "R-requestcontext-sync-actions-queued-after", file: HOST, find: "if (record.bytes > PAYLOAD_LIMIT_BYTES) {", replace: "if (record.bytes > 2 * PAYLOAD_LIMIT_BYTES) {", test: t("test/sheets/request-limits.test.ts", "a chunk queued right after an un-awaited sync() travels in the request already sent") },
  { row: "R-requestcontext-sync-request-000-row", file: "src/sheets/excel/budget.ts", find: "export const REQUEST_BUDGET_BYTES = 4_000_000;", replace: "export const REQUEST_BUDGET_BYTES = 8_000_000;", test: t("test/sheets/request-limits.test.ts", "a 51,000-row load of expenses with CJK descriptions") },
  { row: "R-worksheetcollection-add-snapshot-sheets-long", file: "src/sheets/snapshot.ts", find: "return plain.length <= 31 ? plain : `Snap ${tableName.slice(0, 18)} ${nameTag(tableName, 7)}`;", replace: "return plain.slice(0, 31);", test: t("test/sheets/pipelined-load.test.ts", "snapshot sheets of their own") },
  { row: "R-workbook-settings-setting-does-exist", file: WORKBOOK, find: "GetItemOrNullObject: (key) => (this.host.model.settings.has(String(key)) ?", replace: "GetItemOrNullObject: (key) => (true ?", test: t("test/sheets/pipelined-load.test.ts", "leaves no table, no sheet, no snapshot and no setting") },
  { row: "R-workbook-application-same-instance", file: WORKBOOK, find: "Application: () => new ApplicationObject(this.host, this.calculation),", replace: "Application: () => new ApplicationObject(this.host, { suspended: false, suspensions: 0 }),", test: t(HOST_TEST, "context.workbook.application is the application of context.application") },
  { row: "R-worksheet-delete-self-test-cancelled", file: "src/sheets/excel/create-table.ts", find: "  sheet.visibility = \"Hidden\";\n  sheet.delete();", replace: "  sheet.delete();", test: t("test/sheets/pipelined-load.test.ts", "leaves the workbook's sheets exactly as they were") },
  { row: "R-range-format-rrggbb-named-html", file: FORMAT, find: "this.range.eachCell((cell) => (cell.fill = color === \"\" ? undefined : color));", replace: "if (color === \"\") throw new FakeExcelError(\"InvalidArgument\", \"A fill color is not empty.\");\n            this.range.eachCell((cell) => (cell.fill = color));", test: t(HOST_TEST, FILL_TEST) },
  { row: "R-range-format-rrggbb-named-html", file: FORMAT, find: "if (typeof color !== \"string\") throw", replace: "if (typeof color !== \"string\" && color !== null) throw", test: t(HOST_TEST, FILL_TEST) },
  { row: "R-rangeformat-font-represents-bold-status", file: FORMAT, find: "this.range.eachCell((cell) => (cell.bold = bold || undefined));", replace: "void bold;", test: t("test/sheets/a-table-looks-the-same-however-it-was-written.test.ts", "bold header, style, filters, frozen header") },
  { row: "R-rangeformat-autofitcolumns-changes-width-columns", file: FORMAT, find: "if (typeof value === \"number\" && /^#,##0(\\.0+)?$/.test(numberFormat)) {", replace: "if (false) {", test: t(HOST_TEST, "autofitColumns fits each column to its widest cell as shown") },
  { row: "R-rangeformat-autofitcolumns-changes-width-columns", file: FORMAT, find: "for (let r = area.row; r < area.row + area.rowCount; r++) widest = Math.max(widest, shownLength(sheet.cell(r, c)));", replace: "for (let r = area.row + 1; r < area.row + area.rowCount; r++) widest = Math.max(widest, shownLength(sheet.cell(r, c)));", test: t(HOST_TEST, "autofitColumns fits each column to its widest cell as shown") },
  { row: "R-rangeformat-autofitcolumns-changes-width-columns", file: FORMAT, find: "if (typeof value === \"number\" && /^[ymdhs:\\- ]+$/.test(numberFormat)) return numberFormat.length;", replace: "", test: t(HOST_TEST, "autofitColumns fits each column to its widest cell as shown") },
  { row: "R-rangeformat-load-columnwidth-clamped", file: "src/sheets/excel/widths.ts", find: "const width = Math.min(WIDTH_CAP, Math.max(floors[c] ?? 0, format.columnWidth));", replace: "const width = Math.min(WIDTH_CAP, format.columnWidth);", test: t("test/sheets/money.test.ts", "their expenses show two and three decimals") },
  { row: "R-datavalidation-rule-data-validation-triggered", file: "src/workbench/fake-excel/user-actions.ts", find: "sheet.validations.splice(0, sheet.validations.length, ...kept);\n    }\n    const touched", replace: "void kept;\n    }\n    const touched", test: t("test/workbench/user-actions.test.ts", "paste skips data validation and takes the pasted cells' rule away") },
  { row: "R-datavalidation-rule-state-typed-another", file: "src/sheets/tracked-values.ts", find: "return key === \"state\" ? text.toLowerCase() : text;", replace: "return text;", test: t("test/sync/state-case.test.ts", "State typed or pasted in any case is the state it names") },
  { row: "R-range-clear-clears-everything-range", file: "src/sheets/excel/create-table.ts", find: "    covered.dataValidation.clear(); // clear() leaves", replace: "    // clear() leaves", test: t("test/sheets/stream-sends.test.ts", "a discard while finish's own request is in Excel waits for it") },

  // Cell values returned by the =SPEND functions
  { row: "R-customfunctions-associate-associates-javascript-function", file: "src/functions/functions.ts", find: " * @customfunction CARDS CARDS", replace: " * @customfunction CARD_LIST CARDS", test: t("test/functions/metadata.test.ts", "the =SPEND.* metadata matches the snapshot") },
  { row: "R-customfunctions-error-use-class-handle", file: "src/functions/errors.ts", find: "return new CustomFunctions.Error(CustomFunctions.ErrorCode[cell.code], cell.message);", replace: "return new CustomFunctions.Error(CustomFunctions.ErrorCode[cell.code]);", test: t(FUNCTIONS_TEST, "bad arguments give #VALUE! without calling the service") },
  { row: "R-customfunctions-errorcode-invalidvalue-notavailable-customfunctionsruntime", file: "src/functions/errors.ts", find: "return new CustomFunctions.Error(CustomFunctions.ErrorCode[cell.code], cell.message);", replace: "return new CustomFunctions.Error(CustomFunctions.ErrorCode.invalidValue, cell.message);", test: t(FUNCTIONS_TEST, "a refused key is #VALUE! with the refusal; a missing record is #N/A") },
  { row: "R-customfunctions-invocation-customfunctionsruntime-typed-string", file: "src/functions/runtime.ts", find: "  if (isInValuePreview(invocation)) return previewOf<T>(s, key);", replace: "", test: t(FUNCTIONS_TEST, "formula value preview never calls the service") },
  { row: "R-customfunctions-associate-data-types-custom", file: "src/functions/runtime.ts", find: "isSetSupported(\"CustomFunctionsRuntime\", \"1.4\")", replace: "isSetSupported(\"CustomFunctionsRuntime\", \"1.3\")", test: t(PROFILES_TEST, "Office 2024: plain values, never #VALUE!") },
  { row: "R-customfunctions-associate-excelapi-before-number", file: "src/functions/runtime.ts", find: "? \"double\" : \"formatted-number\"", replace: "? \"double\" : \"double\"", test: t(PROFILES_TEST, "formatted through FormattedNumber") },
  { row: "R-customfunctions-associate-entity-shows-text", file: "src/workbench/fake-excel/function-results.ts", find: "if (typed && !isSetSupported(profile, \"CustomFunctionsRuntime\", \"1.4\")) {", replace: "if (false) {", test: t(PROFILES_TEST, "#VALUE! in Office 2024, bare numbers in Microsoft 365 2302") },
  { row: "R-functions-json-allowcustomdatafordatatypeany", file: "tools/functions-metadata.js", find: "JSON.stringify({ allowCustomDataForDataTypeAny: true, ...metadata }, null, 4)", replace: "JSON.stringify({ ...metadata, allowCustomDataForDataTypeAny: false }, null, 4)", test: t("test/build/production-build.test.ts", "emits a functions.json that allows data types") },

  // Office: the shared runtime, commands, requirements, storage
  { row: "R-office-onready-office-javascript-api", file: "src/commands/when-ready.ts", find: "setTimeout(() => reject(new SetUpTimeoutError()), SET_UP_WAIT_MS)", replace: "setTimeout(() => undefined, SET_UP_WAIT_MS)", test: t("test/commands/when-ready.test.ts", "a set-up that never finishes") },
  { row: "R-office-associate-commands-associated-top", file: "src/shared-runtime.ts", find: "    Office.actions.associate(actionId, handler);", replace: "    void Office.onReady().then(() => Office.actions.associate(actionId, handler));", test: t("test/shared-runtime.test.ts", "registers both ribbon commands while Office.js is still starting") },
  { row: "R-event-completed-you-must-implement", file: "src/commands/when-ready.ts", find: ".finally(() => event.completed());", replace: ".finally(() => undefined);", test: t("test/commands/when-ready.test.ts", "a command pressed when set-up threw still completes its event") },
  { row: "R-office-issetsupported-names-case-versions", file: "src/workbench/fake-excel/profiles.ts", find: "set.toLowerCase() === String(name).toLowerCase()", replace: "set === String(name)", test: t(PROFILES_TEST, "isSetSupported agrees with Microsoft's RequirementMatrix") },
  { row: "R-office-issetsupported-names-case-versions", file: "src/workbench/fake-excel/profiles.ts", find: "return have.major > want.major || (have.major === want.major && have.minor >= want.minor);", replace: "return `${have.major}.${have.minor}` >= `${want.major}.${want.minor}`;", test: t(PROFILES_TEST, "isSetSupported agrees with Microsoft's RequirementMatrix") },
  { row: "R-office-issetsupported-where-manifest-versionoverrides", file: "src/workbench/fake-excel/addin-parts.ts", find: "loads: !missing.some((set) => set.declaredIn === \"base manifest\"),", replace: "loads: missing.length === 0,", test: t(PROFILES_TEST, "Office 2021 opens the plain taskpane only") },
  { row: "R-office-partitionkey-partition-key-undefined", file: "src/workbench/office-js/office-host.ts", find: "partitionKey: profile.partitionKey,", replace: "partitionKey: profile.partitionKey ?? \"\",", test: t(PROFILES_TEST, "Office.context.requirements is the profile's") },
  { row: "R-office-diagnostics-office-windows-value", file: "src/workbench/office-js/office-host.ts", find: "version: profile.version },", replace: "version: profile.version.split(\".\").slice(0, 2).join(\".\") },", test: t(PROFILES_TEST, "Office.context.requirements is the profile's") },
  { row: "R-localstorage-localstorage-some-browsers-user", file: "src/guarded-storage.ts", find: "        blocked = (error as Error)?.name || \"Error\";\n        options.onBlocked?.(blocked);", replace: "        throw error;", test: t("test/guarded-storage.test.ts", "a localStorage that throws on access") },

  // The manifest: the add-in breaks the rule by a change to manifest.xml
  { row: "R-manifest-runtime-lifetime-long", file: "manifest.xml", find: "<Runtime resid=\"Taskpane.Url\" lifetime=\"long\"/>", replace: "<Runtime resid=\"Taskpane.Url\"/>", test: MANIFEST_TEST },
  { row: "R-manifest-customfunctions-extension-point", file: "manifest.xml", find: "<ExtensionPoint xsi:type=\"CustomFunctions\">", replace: "<ExtensionPoint xsi:type=\"CustomFunctionsV2\">", test: MANIFEST_TEST },
  { row: "R-manifest-functionfile-runtime-page", file: "manifest.xml", find: "<FunctionFile resid=\"Taskpane.Url\"/>", replace: "<FunctionFile resid=\"Functions.Script.Url\"/>", test: MANIFEST_TEST },
  { row: "R-manifest-executefunction-action", file: "manifest.xml", find: "<FunctionName>refreshData</FunctionName>", replace: "<FunctionName>refresh</FunctionName>", test: MANIFEST_TEST },
  { row: "R-manifest-taskpaneid-one-pane", file: "manifest.xml", find: "<TaskpaneId>SpendSync.Taskpane</TaskpaneId>", replace: "", test: MANIFEST_TEST },
];
