/**
 * The Office requirement sets the add-in needs, in one place: the offline manifest check
 * (tools/manifest-check.ts, `npm run validate`) fails when manifest.xml declares less, and the taskpane's startup
 * check (src/taskpane/host-support.ts) names what an Excel lacks. Raise a version here, then in manifest.xml.
 *
 * Where each is declared (https://learn.microsoft.com/office/dev/add-ins/develop/specify-office-hosts-and-api-requirements):
 * - SharedRuntime goes in the base manifest's <Requirements>, as the shared runtime article shows
 *   (https://learn.microsoft.com/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime).
 * - ExcelApi and CustomFunctionsRuntime go in the <Requirements> of <VersionOverrides>: where Excel lacks them,
 *   Office still installs the add-in but ignores the overrides (no ribbon group, no =SPEND functions) and opens
 *   the base manifest's taskpane, which then says what is missing instead of failing later
 *   (https://learn.microsoft.com/javascript/api/manifest/requirements#as-a-child-of-a-versionoverrides-element).
 */

/**
 * The highest ExcelApi member the code calls, per node_modules/@types/office-js/index.d.ts: Range.valuesAsJson
 * (ExcelApi 1.16; src/sheets writes typed cell values with it so that service text stays text), above
 * Table.resize (1.13), data validation (1.8), getRangeByIndexes (1.7). test/requirements-usage.test.ts scans
 * the Office-facing sources and fails when a member needs more than this.
 * @internal manifest and host-support tests check manifest.xml and the taskpane's check against it.
 */
export const REQUIRED_EXCEL_API = "1.16";

/**
 * The functions throw CustomFunctions.Error (CustomFunctionsRuntime 1.2) with ErrorCode.invalidValue and
 * ErrorCode.notAvailable, which @types/custom-functions-runtime marks [Api set: CustomFunctionsRuntime 1.3].
 * They read `invocation.isInValuePreview` (1.5) only when Excel passes it, so 1.5 is not required; they are
 * neither streaming nor cancelable and ask for no address.
 * https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets
 * @internal manifest and host-support tests check manifest.xml and the taskpane's check against it.
 */
export const REQUIRED_CUSTOM_FUNCTIONS_RUNTIME = "1.3";

/**
 * Office.addin.showAsTaskpane and one runtime for taskpane, ribbon and functions.
 * @internal requirements.test.ts checks manifest.xml against it.
 */
export const REQUIRED_SHARED_RUNTIME = "1.1";

export interface RequiredSet {
  name: "ExcelApi" | "CustomFunctionsRuntime" | "SharedRuntime";
  version: string;
  /** Which <Requirements> of manifest.xml declares it. */
  declaredIn: "base manifest" | "VersionOverrides";
  /** What the add-in does with it, for the message of an Excel without it. */
  neededFor: string;
}

export const REQUIRED_SETS: readonly RequiredSet[] = [
  { name: "ExcelApi", version: REQUIRED_EXCEL_API, declaredIn: "VersionOverrides", neededFor: "to load and sync tables" },
  { name: "CustomFunctionsRuntime", version: REQUIRED_CUSTOM_FUNCTIONS_RUNTIME, declaredIn: "VersionOverrides", neededFor: "for the =SPEND functions" },
  { name: "SharedRuntime", version: REQUIRED_SHARED_RUNTIME, declaredIn: "base manifest", neededFor: "for the ribbon buttons" },
];

/**
 * Which Excel has each set, from Microsoft's tables (minimum builds):
 * https://learn.microsoft.com/javascript/api/requirement-sets/excel/excel-api-requirement-sets
 * https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets
 * https://learn.microsoft.com/javascript/api/requirement-sets/common/shared-runtime-requirement-sets
 * A version raised above without its line here fails test/taskpane/host-support.test.ts.
 */
export const AVAILABILITY: Readonly<Record<string, string>> = {
  "ExcelApi 1.13": "Excel on the web, Excel on Windows from Version 2102 (Microsoft 365, retail, or volume-licensed Excel 2021 or later), and Excel for Mac or iPad from 16.50",
  "ExcelApi 1.16": "Excel on the web, Excel on Windows from Version 2208 (Microsoft 365, retail, or volume-licensed Excel 2024), Excel for Mac from 16.64 and Excel for iPad from 16.66",
  "CustomFunctionsRuntime 1.3": "Excel on the web, Microsoft 365 on Windows from Version 2008 (retail Excel from Version 2311, volume-licensed Excel 2021 from Version 2108), and Excel for Mac from 16.40, not Excel for iPad",
  "SharedRuntime 1.1": "Excel on the web, Excel on Windows from Version 2002 (volume-licensed Excel 2021 or later), and Excel for Mac from 16.35, not Excel for iPad",
};

/** Compares dotted versions as numbers ("1.13" is above "1.9"); negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
