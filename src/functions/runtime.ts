/**
 * What every =SPEND.* call goes through: the shared Session (credentials on this device, one request
 * governor), a deadline so that a call always settles (never an eternal #BUSY!), and formula value preview
 * answered from the cache only.
 */
import { Session, SpendSyncError, memoryStorage, type SpendClient } from "../api";
import { guardedStorage, officePartitionKey } from "../guarded-storage";
import type { NumberForm } from "../sheets/spill/types";

const DEFAULT_DEADLINE_MS = 60_000;

/**
 * The call took longer than the deadline.
 * @internal runtime.test.ts and function-errors.test.ts name the class a late call throws.
 */
export class DeadlineError extends SpendSyncError {
  override readonly name = "DeadlineError";
}

/**
 * Formula value preview never calls the service.
 * @internal runtime.test.ts and function-errors.test.ts name the class a value preview throws.
 */
export class PreviewError extends SpendSyncError {
  override readonly name = "PreviewError";
}

let session: Session | null = null;
let deadlineMs = DEFAULT_DEADLINE_MS;
let batching = true;

export interface RuntimeOptions {
  /** Each call's deadline from when it is sent (default DEFAULT_DEADLINE_MS). */
  deadlineMs?: number;
  /**
   * Record functions batched (record-batch.ts), the default. `false` gives one GET per record, as before
   * issue 27: the baseline the tests and the benchmark compare the batches with.
   */
  batching?: boolean;
}

/** The shared runtime's entry point gives the functions the session the taskpane uses. */
export function useSession(shared: Session, options: RuntimeOptions = {}): void {
  session = shared;
  deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  batching = options.batching ?? true;
}

/** The deadline of a call from when it is sent. */
export const callDeadlineMs = (): number => deadlineMs;

/** Whether record functions are batched (see RuntimeOptions.batching). */
export const batchingRecords = (): boolean => batching;

/**
 * The form this Excel takes a function's results in:
 * - "plain" values where it has no CustomFunctionsRuntime 1.4: data types from custom functions came with it
 *   ("Requirement set 1.4 includes custom functions integration with data types", custom functions requirement
 *   sets); Office 2024 has ExcelApi 1.17 but CustomFunctionsRuntime 1.3, and would show #VALUE! for an entity.
 * - numbers as `Double` with their `numberFormat` where it has ExcelApi 1.19 too (d.ts, DoubleCellValue);
 * - numbers as `FormattedNumber` (ExcelApi 1.16, the form before 1.19) in between.
 * An Excel that cannot say (no Office.context) gets plain values, which every Excel shows.
 */
export function resultForm(): "plain" | NumberForm {
  try {
    // Without Office (or its context, or its requirements) a property read throws: plain values.
    const requirements = Office.context.requirements;
    if (!requirements.isSetSupported("CustomFunctionsRuntime", "1.4")) return "plain";
    return requirements.isSetSupported("ExcelApi", "1.19") ? "double" : "formatted-number";
  } catch {
    return "plain";
  }
}

/**
 * Before the shared runtime's set-up hands over its Session (or outside it), a Session of its own over the
 * guarded device storage: a blocked localStorage reads as "no connection" (NotConnectedError: #VALUE! "Not
 * connected: ...") instead of a SecurityError; see src/guarded-storage.ts.
 */
export function currentSession(): Session {
  session ??= new Session(guardedStorage(() => (typeof localStorage === "undefined" ? memoryStorage() : localStorage), { partitionKey: officePartitionKey() }));
  return session;
}

/** The governor's key of a call: the connection, the function and its (already checked) arguments. */
export const callKey = (client: SpendClient, name: string, args: unknown[]): string => JSON.stringify([client.baseUrl, client.enterpriseId, name, args]);

/** Formula value preview: the cached value of `key`, or a PreviewError; never the service. */
export function previewOf<T>(s: Session, key: string): T {
  const hit = s.governor.peek<T>(key);
  if (hit !== undefined) return hit;
  throw new PreviewError("Formula preview does not call the service: press Enter to load.");
}

/** Runs `fetch` through the governor, keyed by the function and its (already checked) arguments. */
export async function governed<T>(name: string, args: unknown[], invocation: CustomFunctions.Invocation | undefined,
  fetch: (client: SpendClient, signal: AbortSignal) => Promise<T>): Promise<T> {
  const s = currentSession();
  const client = s.currentClient();
  const key = callKey(client, name, args);
  if (isInValuePreview(invocation)) return previewOf<T>(s, key);
  return s.governor.run(key, () => withDeadline((signal) => fetch(client, signal), deadlineMs));
}

/**
 * Formula value preview (CustomFunctionsRuntime 1.5). @types/custom-functions-runtime types the flag as a
 * string while its doc says `true`/`false`: "false" is a normal calculation, so a truthiness test is wrong.
 */
export function isInValuePreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  const flag: unknown = invocation?.isInValuePreview;
  return flag === true || (typeof flag === "string" && flag.toLowerCase() === "true");
}

/** The deadline starts when the governor sends the call, not while it waits its turn behind others. */
export function withDeadline<T>(run: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new DeadlineError(`no answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}. Try again with Refresh data.`));
    }, ms);
  });
  return Promise.race([run(controller.signal), deadline]).finally(() => clearTimeout(timer));
}
