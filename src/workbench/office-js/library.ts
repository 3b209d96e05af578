/**
 * Microsoft's Office.js client library (the Excel part, `@microsoft/office-js/dist/excel-web-16.00.js`) as the
 * in-memory Excel's page and tests use it: the real `Excel` and `OfficeExtension`, plus the few internals of
 * the library that its own code calls and that we call too (named here, typed by what they do in its source).
 * In Excel, Office.js comes from Microsoft's CDN and none of this is used: the production bundle has no
 * part of src/workbench.
 */

/** What `OfficeExtension.HttpUtility` hands a send function: the request Office.js would POST to `…/ProcessQuery`. */
interface OfficeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The request's JSON (an object, which the library's own senders stringify, or its text). */
  body: unknown;
}

export interface OfficeResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The library's internals this project calls (each one is what the library itself calls for its own members). */
interface OfficeExtensionInternals {
  /** Where a RequestContext made with no URL (as Excel.run makes it) sends its requests, when set. */
  ClientRequestContext: { defaultRequestUrlAndHeaders?: { url: string; headers: Record<string, string> } };
  HttpUtility: { setCustomSendRequestFunc(send: (request: OfficeRequest) => Promise<OfficeResponse>): void };
  BatchApiHelper: { invokeSetProperty(object: object, name: string, value: unknown, flags: number): void };
  CommonUtility: { calculateApiFlags(flags: number, undoableSetName: string, undoableVersion: string): number };
  Utility: {
    throwIfNotLoaded(property: string, field: unknown, typeName: string, isNull: boolean): void;
    throwIfApiNotSupported(api: string, setName: string, version: string, hostName: string): void;
  };
}

/** What the library's generated classes have besides their public members (Excel.Range's, as the shim needs them). */
export interface RangeInternals {
  readonly _isNull: boolean;
  /** Reads a Query's answer (PascalCase properties) into the object's fields. */
  _handleResult(value: unknown): void;
}

export interface OfficeJsLibrary {
  Excel: typeof Excel & { Range: { prototype: RangeInternals } };
  OfficeExtension: typeof OfficeExtension & OfficeExtensionInternals;
}

/** A global the library's script defined (untyped there: its type is what the caller names). */
function scriptGlobal<T>(name: string): T | undefined {
  return Reflect.get(globalThis, name);
}

/** Microsoft's Office.js client is not on the page (or in the test's realm): nothing can reach Excel. */
export class OfficeJsMissingError extends Error {
  override readonly name = "OfficeJsMissingError";
}

/** The library a script tag (the workbench) or the Node loader (tests, benchmarks) put on the global object. */
export function officeJs(): OfficeJsLibrary {
  const excel = scriptGlobal<OfficeJsLibrary["Excel"]>("Excel");
  const extension = scriptGlobal<OfficeJsLibrary["OfficeExtension"]>("OfficeExtension");
  if (!excel?.RequestContext || !extension?.HttpUtility) {
    throw new OfficeJsMissingError("Microsoft's Office.js client is not loaded: the workbench page loads it with a script tag, jest with test/support/office-js.ts.");
  }
  return { Excel: excel, OfficeExtension: extension };
}
