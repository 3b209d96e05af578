/**
 * The in-memory Excel as a host of Office.js's wire protocol: it answers the requests Microsoft's own client
 * library sends (`ProcessQuery`: actions over object paths, see wire.ts) by running them on the workbook,
 * and answers what the library expects to read back. Office.js's client side (proxies, load tracking,
 * PropertyNotLoaded, batching, object lifetimes as the answers allow) is Microsoft's code, not imitated here.
 *
 * Excel's rules that live here, each from the reference (docs/excel-checks.md has the ledger):
 * - A request or a response over 5,000,000 bytes of UTF-8 JSON is refused (RequestPayloadSizeLimitExceeded,
 *   ResponsePayloadSizeLimitExceeded), as Excel on the web does ("5 MB" read as 10^6-based: strict):
 *   https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization
 * - While the user edits a cell, a request fails with InvalidOperationInCellEditMode unless it carries the
 *   delayForCellEdit flag, in which case it waits (d.ts, Excel.RunOptions.delayForCellEdit).
 * - Requests run one at a time, in the order they arrive; an action that fails stops the rest of its request
 *   (what ran before it stays done) and is named by its index, as Excel answers.
 * - An object stays addressable in a later request only as the answer allows it: a range Office.js asked to
 *   keep (`_KeepReference`) by its reference id until `_RemoveReference`, a worksheet or table by its `Id`.
 */
import { utf8Bytes } from "../bytes";
import { FakeExcelError } from "../errors";
import { settleValues } from "../formula-engine";
import type { SheetModel, TableModel, WorkbookModel } from "../model";
import { currentProfile, isSetSupported } from "../profiles";
import { normaliseTableHeaders } from "../typing";
import { setOf } from "./api-sets";
import { ChangeEvents } from "./change-events";
import { HostObject, lowerFirst, type HostContext } from "./host-object";
import { HostStats, recordOf, type RequestRecord } from "./host-stats";
import { NullHostObject } from "./null-object";
import { TableObject } from "./table";
import { ACTION, FLAG_DELAY_FOR_CELL_EDIT, PATH, type ActionInfo, type ArgumentInfo, type ObjectPathInfo, type RequestBody, type ResponseBody } from "./wire";
import { WorkbookObject, type CalculationState } from "./workbook";
import { WorksheetObject } from "./worksheet";
import { messageOf } from "../../../domain";

/** Excel on the web refuses a request or a response over 5 MB (see the header). */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;

export interface HostOptions {
  /** What a round trip to Excel costs (benchmarks). */
  latencyMs?: number;
}

/** One request's objects, by object path id, resolved once. */
type Resolved = Map<number, HostObject>;

export class ExcelProtocolHost implements HostContext {
  readonly stats = new HostStats();
  private readonly references = new Map<string, HostObject>();
  private readonly referenceIds = new WeakMap<HostObject, string>();
  private nextReference = 1;
  private readonly worksheetObjects = new WeakMap<SheetModel, WorksheetObject>();
  private readonly tableObjects = new WeakMap<TableModel, TableObject>();
  /** Other workbooks open in this Excel, each with its own formulas (a test adds them; see calculation.ts). */
  readonly otherWorkbooks: WorkbookModel[] = [];
  /** Requests run one at a time: each waits for the one before it. */
  private queue: Promise<unknown> = Promise.resolve();

  readonly events: ChangeEvents;
  constructor(readonly model: WorkbookModel, private readonly options: HostOptions = {}) {
    this.events = new ChangeEvents(model);
  }

  worksheet(sheet: SheetModel): HostObject {
    let object = this.worksheetObjects.get(sheet);
    if (!object) this.worksheetObjects.set(sheet, (object = new WorksheetObject(this, sheet)));
    return object;
  }

  table(table: TableModel): HostObject {
    let object = this.tableObjects.get(table);
    if (!object) this.tableObjects.set(table, (object = new TableObject(this, table)));
    return object;
  }

  /** References Excel holds for the add-in (kept ranges), for tests that check none is left behind. */
  get heldReferences(): number {
    return this.references.size;
  }

  /** Answers one request of Microsoft's client: its JSON body as sent and the flags of its URL. */
  processQuery(body: string, flags: number): Promise<string> {
    const answer = this.queue.then(() => this.answer(body, flags));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async answer(body: string, flags: number): Promise<string> {
    const request = JSON.parse(body) as RequestBody;
    const record = recordOf(body, flags, request);
    this.stats.requests.push(record);
    const latency = this.options.latencyMs ?? 0;
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    // A batch sent while the user edits a cell fails, unless the run asked to wait (Excel.RunOptions in the d.ts:
    // "When false, if the user is in cell edit when the batch request is processed by the host, the batch automatically fails").
    while (this.model.cellEdit) {
      if ((flags & FLAG_DELAY_FOR_CELL_EDIT) === 0) {
        return this.refuse(record, new FakeExcelError(
          "InvalidOperationInCellEditMode",
          "Excel is in cell-editing mode. Please exit the edit mode by pressing ENTER or TAB or selecting another cell, and then try again.",
        ));
      }
      const edit = this.model.cellEdit;
      edit.waiting++;
      await edit.ended;
      edit.waiting--;
    }
    if (record.bytes > PAYLOAD_LIMIT_BYTES) {
      return this.refuse(record, new FakeExcelError(
        "RequestPayloadSizeLimitExceeded",
        `The request payload size has exceeded the limit (${record.bytes} bytes > ${PAYLOAD_LIMIT_BYTES}). Please refer to the documentation: "https://docs.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization#excel-add-ins".`,
      ));
    }
    const response = this.run(request);
    const text = JSON.stringify(response);
    const responseBytes = utf8Bytes(text);
    if (responseBytes > PAYLOAD_LIMIT_BYTES) {
      return this.refuse(record, new FakeExcelError(
        "ResponsePayloadSizeLimitExceeded",
        `The response payload size has exceeded the limit (${responseBytes} bytes > ${PAYLOAD_LIMIT_BYTES}). Please refer to the documentation: "https://docs.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization#excel-add-ins".`,
      ));
    }
    record.responseBytes = responseBytes;
    return text;
  }

  /** An answer that refuses the whole request (no action ran, or none of their results is given). */
  private refuse(record: RequestRecord, error: FakeExcelError): string {
    const response: ResponseBody = { Results: [], Error: { Code: error.code, Message: error.message, HttpStatusCode: error.httpStatus, ActionIndex: -1, Location: "" } };
    const text = JSON.stringify(response);
    record.refused = error.code;
    record.responseBytes = utf8Bytes(text);
    return text;
  }

  /** Runs the actions in order; the first that fails stops the rest. */
  private run(request: RequestBody): ResponseBody {
    const calculation: CalculationState = { suspended: false, suspensions: 0 };
    const root = new WorkbookObject(this, calculation);
    const resolved: Resolved = new Map();
    const results: ResponseBody["Results"] = [];
    try {
      request.Actions.forEach((action, index) => {
        try {
          const value = this.act(action, request, root, resolved);
          if (action.ActionType !== ACTION.setProperty) results.push({ ActionId: action.Id, Value: value });
        } catch (error) {
          throw Object.assign(asExcelError(error), { actionIndex: index });
        }
      });
      return { Results: results };
    } catch (failure) {
      const error = failure as FakeExcelError & { actionIndex: number };
      return { Results: results, Error: { Code: error.code, Message: error.message, HttpStatusCode: error.httpStatus, ActionIndex: error.actionIndex, Location: "" } };
    } finally {
      if (root.changed) this.settle(root);
      if (calculation.suspended) this.model.recalculationPending = true;
      this.stats.calculationSuspensions += calculation.suspensions;
      normaliseTableHeaders(this.model.tables);
    }
  }

  /** Formulas take their values after what the request changed (formula-engine.ts, settleValues). */
  private settle(root: WorkbookObject): void {
    root.changed = false;
    settleValues(this.model, root.calculation.suspended || this.model.recalculationPending);
  }

  /**
   * A member above this Excel's ExcelApi fails with ApiNotFound (the error table's code; its message is the
   * table's text), as it would in that Excel: api-sets.ts holds each member's set, from the d.ts.
   */
  private require(object: HostObject | string, wireName: string, use: "get" | "set"): void {
    if ((typeof object !== "string" && object.isNull) || wireName.startsWith("_")) return;
    const member = `${typeof object === "string" ? object : object.className}.${lowerFirst(wireName)}`;
    const set = setOf(member, use);
    const profile = currentProfile();
    if (set !== undefined && !isSetSupported(profile, "ExcelApi", set)) {
      throw new FakeExcelError("ApiNotFound", `The API you are trying to use could not be found. It may be available in a newer version of the Office application. (${member} is ExcelApi ${set}; ${profile.name} has ExcelApi ${profile.sets.ExcelApi}.)`);
    }
  }

  private act(action: ActionInfo, request: RequestBody, root: WorkbookObject, resolved: Resolved): unknown {
    if (action.ActionType === ACTION.trace) return null; // a marker of the client's (its event handlers' additions name object path 0)
    const object = this.resolve(action.ObjectPathId, request, root, resolved);
    switch (action.ActionType) {
      case ACTION.instantiate: {
        if (object.isNull) return null;
        const reference = this.referenceIds.get(object);
        return reference !== undefined ? { _ReferenceId: reference } : object.identity();
      }
      case ACTION.query: {
        // What was written before this read is calculated first, as Excel's values are current when read.
        if (root.changed) this.settle(root);
        if (object.isNull) return null;
        const select = action.QueryInfo?.Select;
        for (const name of select ?? []) this.require(object.itemClass ?? object, name.split("/")[0], "get");
        const items = object.items();
        if (!items) return object.query(select);
        const skip = action.QueryInfo?.Skip ?? 0;
        const top = action.QueryInfo?.Top ?? items.length;
        return { _Items: items.slice(skip, skip + top).map((item) => ({ ...item.identity(), ...item.query(select) })) };
      }
      case ACTION.method: {
        root.changed = true;
        const args = this.args(action.ArgumentInfo, request, root, resolved);
        // A null object is answered as null, with no reference id Office.js could remove later: nothing is kept.
        if (action.Name === "_KeepReference") return object.isNull ? null : this.keep(object);
        if (action.Name === "_RemoveReference") {
          this.references.delete(String(args[0]));
          return null;
        }
        if (object.isNull) object.call(action.Name, args); // throws: nothing can be done to a null object
        this.require(object, action.Name, "get");
        const value = object.call(action.Name, args);
        return value instanceof HostObject ? null : value;
      }
      case ACTION.setProperty: {
        root.changed = true;
        const [value] = this.args(action.ArgumentInfo, request, root, resolved);
        this.require(object, action.Name, "set");
        object.set(action.Name, value);
        return null;
      }
      default:
        throw new FakeExcelError("InvalidArgument", `Unknown action type ${action.ActionType}.`);
    }
  }

  /** `_KeepReference`: Excel holds the object for the add-in under a reference id, until `_RemoveReference`. */
  private keep(object: HostObject): null {
    if (!object.keepable) throw new FakeExcelError("InvalidArgument", `Excel does not keep references to a ${object.className}.`);
    if (!this.referenceIds.has(object)) {
      const id = `{ref-${this.nextReference++}}`;
      this.references.set(id, object);
      this.referenceIds.set(object, id);
    }
    return null;
  }

  private args(info: ArgumentInfo | undefined, request: RequestBody, root: WorkbookObject, resolved: Resolved): unknown[] {
    const args = info?.Arguments ?? [];
    const paths = info?.ReferencedObjectPathIds;
    if (!paths) return args;
    return args.map((arg, i) => (typeof paths[i] === "number" ? this.resolve(paths[i]!, request, root, resolved) : arg));
  }

  private resolve(id: number, request: RequestBody, root: WorkbookObject, resolved: Resolved): HostObject {
    const known = resolved.get(id);
    if (known) return known;
    const path: ObjectPathInfo | undefined = request.ObjectPaths[String(id)];
    if (!path) throw new FakeExcelError("InvalidObjectPath", `The request names object path ${id}, which it does not describe.`);
    const parent = () => this.resolve(path.ParentObjectPathId ?? -1, request, root, resolved);
    let object: HostObject;
    switch (path.ObjectPathType) {
      case PATH.root:
        object = root;
        break;
      case PATH.property: {
        const of = parent();
        this.require(of, path.Name, "get");
        object = of.isNull ? of : of.navigate(path.Name);
        break;
      }
      case PATH.method: {
        const of = parent();
        const args = this.args(path.ArgumentInfo, request, root, resolved);
        this.require(of, path.Name, "get");
        const made = of.isNull ? of : of.call(path.Name, args);
        if (!(made instanceof HostObject)) throw new FakeExcelError("InvalidArgument", `${of.className}.${path.Name} does not return an object.`);
        object = made;
        break;
      }
      case PATH.indexer: {
        const of = parent();
        object = of.isNull ? of : of.item(path.ArgumentInfo?.Arguments?.[0]);
        break;
      }
      case PATH.referenceId: {
        const kept = this.references.get(path.Name);
        if (!kept) throw new FakeExcelError("InvalidObjectPath", `The object path '${path.Name}' isn't working for what you're trying to do: Excel no longer holds that object.`);
        object = kept;
        break;
      }
      case PATH.nullObject:
        object = new NullHostObject("Object", "This object");
        break;
      default:
        throw new FakeExcelError("InvalidObjectPath", `Unknown object path type ${path.ObjectPathType}.`);
    }
    resolved.set(id, object);
    return object;
  }
}

/** Anything that is not an Excel error is a bug of the in-memory Excel: answered as Excel's GeneralException. */
function asExcelError(error: unknown): FakeExcelError {
  if (error instanceof FakeExcelError) return error;
  return new FakeExcelError("GeneralException", `The in-memory Excel failed: ${messageOf(error)}`);
}
