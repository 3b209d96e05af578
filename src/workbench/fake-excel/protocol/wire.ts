/**
 * The JSON that Microsoft's Office.js client sends to Excel and reads back (`ProcessQuery`), as its own code
 * builds and reads it in @microsoft/office-js 1.1.110 (`excel-web-16.00.debug.js`: `ActionType`,
 * `ObjectPathType`, `buildRequestMessageBodyAndRequestFlags`, `processRequestExecutorResponseMessage`). The
 * in-memory Excel answers exactly these shapes; nothing here is ours to choose.
 */

/** `ActionType` in the library. */
export const ACTION = { instantiate: 1, query: 2, method: 3, setProperty: 4, trace: 5 } as const;

/** `ObjectPathType` in the library. */
export const PATH = { root: 1, method: 3, property: 4, indexer: 5, referenceId: 6, nullObject: 7 } as const;

/** Request flags (`?flags=` of the URL): 64 is Excel.RunOptions.delayForCellEdit (the library's `onBeforeExcelRun`). */
export const FLAG_DELAY_FOR_CELL_EDIT = 64;

export interface ArgumentInfo {
  Arguments?: unknown[];
  /** For an argument that is a client object: its object path id at that index. */
  ReferencedObjectPathIds?: (number | null)[];
}

export interface ObjectPathInfo {
  Id: number;
  ObjectPathType: number;
  Name: string;
  ParentObjectPathId?: number;
  ArgumentInfo?: ArgumentInfo;
}

interface QueryInfo {
  Select?: string[];
  Expand?: string[];
  Top?: number;
  Skip?: number;
}

export interface ActionInfo {
  Id: number;
  ActionType: number;
  Name: string;
  ObjectPathId: number;
  ArgumentInfo?: ArgumentInfo;
  QueryInfo?: QueryInfo;
}

export interface RequestBody {
  AutoKeepReference?: boolean;
  Actions: ActionInfo[];
  ObjectPaths: Record<string, ObjectPathInfo>;
}

interface WireError {
  Code: string;
  Message: string;
  HttpStatusCode: number;
  /** The action that failed; -1 for the request as a whole. */
  ActionIndex: number;
  Location: string;
}

export interface ResponseBody {
  Results: { ActionId: number; Value: unknown }[];
  Error?: WireError;
}
