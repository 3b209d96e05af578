/**
 * What the in-memory Excel received, as the tests and benchmarks read it: one record per request (its bytes,
 * its actions, what they did, the answer's size, a refusal), and sums over the add-in's own requests.
 */
import { utf8Bytes } from "../bytes";
import { ACTION, type ActionInfo, type RequestBody } from "./wire";

/** One request as Excel received and answered it. */
export interface RequestRecord {
  /** UTF-8 bytes of its JSON, as sent. */
  bytes: number;
  /** The URL's flags (64: delayForCellEdit). */
  flags: number;
  /** Its actions, Instantiate and Query included. */
  actions: number;
  /**
   * What it did, in order: "SetProperty ValuesAsJson", "Method Clear", "Query values,rowCount" (Instantiate and
   * Office.js's `_KeepReference` / `_RemoveReference` housekeeping left out).
   */
  calls: string[];
  /** UTF-8 bytes of the answer (a refused answer's error, when refused). */
  responseBytes: number;
  /** The code of the error that refused the whole request or its answer, if any. */
  refused?: string;
  /** Office.js's own housekeeping at the end of an Excel.run (`_RemoveReference` only), not the add-in's work. */
  cleanup: boolean;
}

/**
 * What Excel received. The add-in's work is every request but Office.js's cleanups (which travel too, and are
 * counted apart in `cleanups`): `syncs`, `requestBytes`, `operations` and `responseBytes` are of those.
 */
export class HostStats {
  readonly requests: RequestRecord[] = [];
  /** suspendApiCalculationUntilNextSync calls. */
  calculationSuspensions = 0;

  private get work(): RequestRecord[] {
    return this.requests.filter((r) => !r.cleanup);
  }

  get syncs(): number {
    return this.work.length;
  }

  get requestBytes(): number[] {
    return this.work.map((r) => r.bytes);
  }

  get operations(): number[] {
    return this.work.map((r) => r.actions);
  }

  get responseBytes(): number[] {
    return this.work.filter((r) => r.refused === undefined).map((r) => r.responseBytes);
  }

  get requestFlags(): number[] {
    return this.work.map((r) => r.flags);
  }

  /** Answers refused as over the limit (their request failed with ResponsePayloadSizeLimitExceeded). */
  get refusedResponses(): number {
    return this.requests.filter((r) => r.refused === "ResponsePayloadSizeLimitExceeded").length;
  }

  get cleanups(): number {
    return this.requests.length - this.work.length;
  }

  /** How many times the add-in's requests did `call` ("SetProperty ValuesAsJson"). */
  count(call: string): number {
    return this.work.reduce((sum, r) => sum + r.calls.filter((c) => c === call).length, 0);
  }

  reset(): void {
    this.requests.length = 0;
    this.calculationSuspensions = 0;
  }
}

/** A new request's record, before it is answered: Office.js's cleanups (`_RemoveReference` only) marked as such. */
export function recordOf(body: string, flags: number, request: RequestBody): RequestRecord {
  return {
    bytes: utf8Bytes(body), flags, actions: request.Actions.length, calls: request.Actions.flatMap(callOf), responseBytes: 0,
    cleanup: request.Actions.some((a) => a.ActionType === ACTION.method && a.Name === "_RemoveReference")
      && request.Actions.every((a) => a.ActionType === ACTION.instantiate || (a.ActionType === ACTION.method && a.Name === "_RemoveReference")),
  };
}

/** What an action does, for the request's record (see RequestRecord.calls). */
function callOf(action: ActionInfo): string[] {
  if (action.ActionType === ACTION.setProperty) return [`SetProperty ${action.Name}`];
  if (action.ActionType === ACTION.method && !action.Name.endsWith("Reference")) return [`Method ${action.Name}`];
  if (action.ActionType === ACTION.query) return [`Query ${(action.QueryInfo?.Select ?? []).join(",")}`];
  return [];
}
