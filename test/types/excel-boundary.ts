/**
 * Type-level fixtures for the Excel boundary, compiled by `npm run typecheck` (not run by jest).
 * 1. Office.js's `Excel` satisfies the subset the adapter uses.
 * 2. A subset that names a member Office.js lacks, or types one differently, is refused: each
 *    `@ts-expect-error` below fails the type check if the error it expects ever goes away.
 */
import type { ExcelHost, XContext, XRange, XTable } from "../../src/sheets/excel/api";
import type { FakeExcel } from "../../src/workbench/fake-excel";

declare const realExcel: typeof Excel;
declare const realTable: Excel.Table;
declare const realRange: Excel.Range;
declare const fake: FakeExcel;

// 1. Both Excels are hosts of the adapter.
export const real: ExcelHost = realExcel;
export const inMemory: ExcelHost = fake;

// 2a. The bug of issue 11: `showFilters` is not an Excel.Table property (showFilterButton is).
interface TableWithShowFilters extends XTable {
  showFilters: boolean;
}
// @ts-expect-error Excel.Table has no showFilters
export const misspelt: TableWithShowFilters = realTable;

// 2b. A method that does not exist on Excel.Range.
interface RangeWithClearContents extends XRange {
  clearContents(): void;
}
// @ts-expect-error Excel.Range has no clearContents
export const noSuchMethod: RangeWithClearContents = realRange;

// 2c. A property typed differently from Office.js (rowCount is a number).
interface RangeWithStringRowCount extends Omit<XRange, "rowCount"> {
  readonly rowCount: string;
}
// @ts-expect-error Excel.Range.rowCount is a number
export const wrongType: RangeWithStringRowCount = realRange;

// 2d. A host whose context asks for more than Excel.RequestContext has is refused as a whole.
interface ContextWithTypo extends XContext {
  readonly workbok: XContext["workbook"];
}
interface HostWithTypo {
  run: <T>(options: Excel.RunOptions, batch: (context: ContextWithTypo) => Promise<T>) => Promise<T>;
}
// @ts-expect-error Excel.RequestContext has no workbok
export const typoHost: HostWithTypo = realExcel;

// 2e. A widened parameter is refused too (members are properties, checked contravariantly): Office.js's
// calculate takes a calculation type, not any string.
interface ApplicationTakingAnyString {
  calculate: (calculationType: string) => void;
}
declare const realApplication: Excel.Application;
// @ts-expect-error Excel.Application.calculate does not take any string
export const widened: ApplicationTakingAnyString = realApplication;
