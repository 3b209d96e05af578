/**
 * OUR ONE SHIM over Microsoft's Office.js client, and why: the newest copy of the client on npm
 * (@microsoft/office-js 1.1.110) predates ExcelApi 1.16, so its `Excel.Range` has no `valuesAsJson`, and a
 * value set on a plain property of that name is silently left out of the request (seen on the wire). Every
 * value the add-in writes goes through `valuesAsJson` (src/sheets/port/cells.ts), so the tests need it.
 *
 * It is added exactly the way the library writes its own members (compare `Range.prototype.values` and
 * `Range.prototype.hyperlink` in `excel-web-16.00.debug.js`): the setter queues a SetProperty "ValuesAsJson"
 * through `OfficeExtension.BatchApiHelper.invokeSetProperty`, with the flags `values` gets, and checks no
 * requirement set (the library's setters never do: Excel refuses the request instead); the getter throws
 * PropertyNotLoaded until a load and a sync brought it, then ApiNotFound where this Excel lacks ExcelApi 1.16,
 * as the library's getters check; a Query's "ValuesAsJson" is read into it. Nothing else on the client side
 * is ours. Excel itself loads Office.js from Microsoft's CDN, which has the member.
 */
import type { OfficeJsLibrary, RangeInternals } from "./library";

/** Where the library keeps the member's value (its own fields are short names like `_V`; this one is ours). */
const FIELD = "_ValuesAsJsonShim";

interface ShimmedRange extends RangeInternals {
  [FIELD]?: Excel.CellValue[][];
}

export function addValuesAsJson({ Excel: excel, OfficeExtension: extension }: OfficeJsLibrary): void {
  const proto: ShimmedRange = excel.Range.prototype;
  if (Object.getOwnPropertyDescriptor(proto, "valuesAsJson")) return; // a library that has it needs no shim
  Object.defineProperty(proto, "valuesAsJson", {
    get(this: ShimmedRange) {
      extension.Utility.throwIfNotLoaded("valuesAsJson", this[FIELD], "Range", this._isNull);
      extension.Utility.throwIfApiNotSupported("Range.valuesAsJson", "ExcelApi", "1.16", "Excel");
      return this[FIELD];
    },
    set(this: ShimmedRange, value: Excel.CellValue[][]) {
      this[FIELD] = value;
      // The flags the library gives `values`: an undoable write where Excel can undo it (_calculateApiFlags).
      extension.BatchApiHelper.invokeSetProperty(this, "ValuesAsJson", value, extension.CommonUtility.calculateApiFlags(2, "ExcelApiUndo", "1.16"));
    },
    enumerable: true,
    configurable: true,
  });
  const handleResult = proto._handleResult;
  proto._handleResult = function (this: ShimmedRange, value: unknown) {
    handleResult.call(this, value);
    const json = (value as { ValuesAsJson?: Excel.CellValue[][] } | null)?.ValuesAsJson;
    if (json !== undefined) this[FIELD] = json;
  };
}
