/**
 * The ExcelApi requirement set of every member the in-memory Excel answers, copied from the `[Api set: ExcelApi …]`
 * of its comment in @types/office-js (test/workbench/api-sets.test.ts reads the d.ts and fails when an entry
 * differs from it, or when the host answers a member that has no entry). A request that reaches a member above
 * the profile's ExcelApi fails with ApiNotFound, as Excel without it would; Microsoft's client refuses most of
 * them first (its getters and methods check), but never its setters, which only Excel can refuse.
 * A member whose reading and setting came in different sets has both.
 */

export type MemberSet = string | { get: string; set: string };

export const MEMBER_SETS: Readonly<Record<string, MemberSet>> = {
  // Excel.Range
  "Range.address": "1.1",
  "Range.rowCount": "1.1",
  "Range.columnCount": "1.1",
  "Range.rowIndex": "1.1",
  "Range.columnIndex": "1.1",
  "Range.cellCount": "1.1",
  "Range.values": "1.1",
  "Range.valuesAsJson": "1.16",
  "Range.valueTypes": "1.1",
  "Range.formulas": "1.1",
  "Range.numberFormat": "1.1",
  "Range.text": "1.1",
  "Range.format": "1.1",
  "Range.dataValidation": "1.8",
  "Range.worksheet": "1.1",
  "Range.getCell": "1.1",
  "Range.getRow": "1.1",
  "Range.getColumn": "1.1",
  "Range.getResizedRange": "1.2",
  "Range.getOffsetRange": "1.1",
  "Range.getUsedRangeOrNullObject": "1.4",
  "Range.getBoundingRect": "1.1",
  "Range.clear": "1.1",
  "Range.select": "1.1",
  "Range.calculate": "1.6",
  "Range.getSpecialCells": "1.9",
  "Range.getSpecialCellsOrNullObject": "1.9",
  "Range.getTables": "1.9",
  // Excel.RangeAreas
  "RangeAreas.address": "1.9",
  "RangeAreas.areaCount": "1.9",
  "RangeAreas.cellCount": "1.9",
  "RangeAreas.areas": "1.9",
  "RangeAreas.calculate": "1.9",
  // Excel.RangeFormat
  "RangeFormat.columnWidth": "1.2",
  "RangeFormat.fill": "1.1",
  "RangeFormat.font": "1.1",
  "RangeFormat.autofitColumns": "1.2",
  // Excel.RangeFill
  "RangeFill.color": "1.1",
  "RangeFill.clear": "1.1",
  // Excel.RangeFont
  "RangeFont.bold": "1.1",
  // Excel.DataValidation
  "DataValidation.rule": "1.8",
  "DataValidation.clear": "1.8",
  // Excel.Worksheet
  "Worksheet.id": "1.1",
  "Worksheet.name": "1.1",
  "Worksheet.position": "1.1",
  "Worksheet.visibility": { get: "1.1", set: "1.2" },
  "Worksheet.tables": "1.1",
  "Worksheet.freezePanes": "1.7",
  "Worksheet.getRange": "1.1",
  "Worksheet.getRangeByIndexes": "1.7",
  "Worksheet.getCell": "1.1",
  "Worksheet.getUsedRange": "1.1",
  "Worksheet.getUsedRangeOrNullObject": "1.4",
  "Worksheet.activate": "1.1",
  "Worksheet.delete": "1.1",
  // Excel.WorksheetFreezePanes
  "WorksheetFreezePanes.freezeRows": "1.7",
  // Excel.WorksheetCollection
  "WorksheetCollection.getItem": "1.1",
  "WorksheetCollection.getItemOrNullObject": "1.4",
  "WorksheetCollection.getActiveWorksheet": "1.1",
  "WorksheetCollection.add": "1.1",
  // Excel.Table
  "Table.id": "1.1",
  "Table.name": "1.1",
  "Table.showFilterButton": "1.3",
  "Table.showHeaders": "1.1",
  "Table.showTotals": "1.1",
  "Table.style": "1.1",
  "Table.worksheet": "1.2",
  "Table.getRange": "1.1",
  "Table.getHeaderRowRange": "1.1",
  "Table.getDataBodyRange": "1.1",
  "Table.getTotalRowRange": "1.1",
  "Table.resize": "1.13",
  "Table.sort": "1.2",
  "TableSort.apply": "1.2",
  "Table.delete": "1.1",
  // Excel.TableCollection
  "TableCollection.count": "1.1",
  "TableCollection.getItem": "1.1",
  "TableCollection.getItemOrNullObject": "1.4",
  "TableCollection.add": "1.1",
  // Excel.TableScopedCollection
  "TableScopedCollection.getFirst": "1.9",
  "TableScopedCollection.getItem": "1.9",
  // Excel.Setting
  "Setting.key": "1.4",
  "Setting.value": "1.4",
  "Setting.delete": "1.4",
  // Excel.SettingCollection
  "SettingCollection.add": "1.4",
  "SettingCollection.getItem": "1.4",
  "SettingCollection.getItemOrNullObject": "1.4",
  // Excel.Workbook
  "Workbook.name": "1.7",
  "Workbook.worksheets": "1.1",
  "Workbook.tables": "1.1",
  "Workbook.settings": "1.4",
  "Workbook.application": "1.1",
  "Workbook.getSelectedRange": "1.1",
  // Excel.Application
  "Application.calculationMode": { get: "1.1", set: "1.8" },
  "Application.suspendApiCalculationUntilNextSync": "1.6",
  "Application.calculate": "1.1",

};

/** The set a use of `Class.member` needs: reading it (a Query, a navigation, a method) or setting it. */
export function setOf(member: string, use: "get" | "set"): string | undefined {
  const entry = MEMBER_SETS[member];
  return typeof entry === "object" ? entry[use] : entry;
}
