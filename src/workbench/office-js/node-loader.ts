/**
 * Microsoft's Office.js client library in Node (jest, the benchmarks): the file from @microsoft/office-js,
 * run as a browser runs its script tag, with `window` being the global object (where the library keeps its
 * globals and looks for `window.Office.context.requirements` to check requirement sets) and a `navigator`
 * (it reads the user agent as it loads).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runInThisContext } from "node:vm";
import { officeJs, type OfficeJsLibrary } from "./library";
import { addValuesAsJson } from "./values-as-json";

const OFFICE_JS_FILE = "@microsoft/office-js/dist/excel-web-16.00.js";

/** The library's source text. */
function officeJsSource(): string {
  return readFileSync(createRequire(__filename).resolve(OFFICE_JS_FILE), "utf8");
}

/** Loads the library into this realm (once) and adds our one shim (values-as-json.ts). */
export function loadOfficeJs(): OfficeJsLibrary {
  if (!Reflect.get(globalThis, "OfficeExtension")) {
    Object.assign(globalThis, { window: globalThis, navigator: Reflect.get(globalThis, "navigator") ?? { userAgent: "node" } });
    runInThisContext(officeJsSource(), { filename: OFFICE_JS_FILE });
  }
  const library = officeJs();
  addValuesAsJson(library);
  return library;
}
