/**
 * The start-up checks. First that the page is in Excel at all: Office.js may not have loaded (taskpane.html's
 * script from Microsoft's CDN, blocked by a firewall, a proxy or a browser extension), or the page may be open
 * outside Office, where Office.onReady resolves with host null and Office.context has no requirements
 * (https://learn.microsoft.com/office/dev/add-ins/develop/initialize-add-in). Then the requirement sets (src/requirements.ts): an Excel that lacks one gets one sentence
 * naming what is missing and which Excel versions have it, instead of an error deep inside a load or a sync.
 * Office's own runtime check: https://learn.microsoft.com/office/dev/add-ins/develop/specify-api-requirements-runtime
 * (versions are passed as strings: "1.13" is not the number 1.13).
 */
import { SpendSyncError } from "../api";
import { AVAILABILITY, REQUIRED_SETS, type RequiredSet } from "../requirements";

/**
 * The Office.js that did not load: what is wrong and what to do, in one sentence.
 * @internal host-support and startup browser tests expect these exact words.
 */
export const OFFICE_JS_MISSING = "Office.js, Microsoft's script that connects Spend Sync to Excel, did not load from appsforoffice.microsoft.com: " +
  "allow that address through your firewall, proxy or browser extensions, then close and reopen Spend Sync.";
/**
 * The page opened outside Office (a browser tab).
 * @internal host-support and startup browser tests expect these exact words.
 */
export const NOT_IN_EXCEL = "Spend Sync works only inside Excel, not in a browser tab: open a workbook in Excel (desktop or on the web) " +
  "and press Show taskpane in the Spend Sync group of the Home tab.";
/** How long the taskpane waits for Office.onReady before it says so (it keeps waiting). */
export const STALLED_AFTER_MS = 30_000;
/** Office.js has not said it is ready after STALLED_AFTER_MS. */
export const OFFICE_JS_STALLED = `Excel has not answered Spend Sync for ${STALLED_AFTER_MS / 1000} seconds (a firewall or a browser extension may be ` +
  "blocking Office.js's files from appsforoffice.microsoft.com): close and reopen Spend Sync.";

/**
 * Office.js did not load, or loaded outside Excel: the taskpane cannot reach a workbook.
 * @internal host-support.test.ts names the class.
 */
export class NotInExcelError extends SpendSyncError {
  override readonly name = "NotInExcelError";
  constructor(readonly reason: "no-office-js" | "outside-office") {
    super(reason === "no-office-js" ? OFFICE_JS_MISSING : NOT_IN_EXCEL);
  }
}

/** What the start-up reads of Office.js's global. */
export type OfficeGlobal = { onReady(): Promise<{ host: unknown }>; context?: { requirements?: unknown } };

/**
 * Office.onReady for `office` (the global Office, undefined where its script did not load); rejects with
 * NotInExcelError where there is no Office.js or no Excel behind it.
 */
export async function officeReady(office: OfficeGlobal | undefined): Promise<void> {
  if (office === undefined) throw new NotInExcelError("no-office-js");
  const info = await office.onReady();
  if (!info?.host || !office.context?.requirements) throw new NotInExcelError("outside-office");
}

/** Office.context.requirements, or a stand-in in tests. */
export type RequirementSupport = Pick<Office.RequirementSetSupport, "isSetSupported">;

/**
 * This Excel lacks requirement sets the add-in needs; the message says which and where to get them.
 * @internal host-support, profiles and error-table tests name the class.
 */
export class UnsupportedExcelError extends SpendSyncError {
  override readonly name = "UnsupportedExcelError";
  constructor(readonly missing: readonly RequiredSet[]) {
    super(unsupportedExcelMessage(missing));
  }
}

/**
 * The required sets this Excel does not support, in the order of REQUIRED_SETS.
 * @internal host-support.test.ts checks each Excel's missing sets directly.
 */
export function missingSets(requirements: RequirementSupport, required: readonly RequiredSet[] = REQUIRED_SETS): RequiredSet[] {
  return required.filter((set) => !requirements.isSetSupported(set.name, set.version));
}

/** One sentence: what is missing, what it is for, and which Excel has it. */
function unsupportedExcelMessage(missing: readonly RequiredSet[]): string {
  const what = missing.map((s) => `${s.name} ${s.version} (${s.neededFor})`);
  const where = missing.map((s) => `${s.name} ${s.version} comes with ${AVAILABILITY[`${s.name} ${s.version}`] ?? "a newer Excel"}`);
  return `This Excel lacks ${list(what)}, so Spend Sync can't run here: ${where.join("; ")}.`;
}

/** Throws UnsupportedExcelError when a required set is missing. */
export function assertExcelSupported(requirements: RequirementSupport): void {
  const missing = missingSets(requirements);
  if (missing.length > 0) throw new UnsupportedExcelError(missing);
}

function list(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
