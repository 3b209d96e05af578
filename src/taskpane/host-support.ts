/**
 * The startup check of the requirement sets (src/requirements.ts): an Excel that lacks one gets one sentence
 * naming what is missing and which Excel versions have it, instead of an error deep inside a load or a sync.
 * Office's own runtime check: https://learn.microsoft.com/office/dev/add-ins/develop/specify-api-requirements-runtime
 * (versions are passed as strings: "1.13" is not the number 1.13).
 */
import { SpendSyncError } from "../api";
import { AVAILABILITY, REQUIRED_SETS, type RequiredSet } from "../requirements";

/** Office.context.requirements, or a stand-in in tests. */
export type RequirementSupport = Pick<Office.RequirementSetSupport, "isSetSupported">;

/** This Excel lacks requirement sets the add-in needs; the message says which and where to get them. */
export class UnsupportedExcelError extends SpendSyncError {
  override readonly name = "UnsupportedExcelError";
  constructor(readonly missing: readonly RequiredSet[]) {
    super(unsupportedExcelMessage(missing));
  }
}

/** The required sets this Excel does not support, in the order of REQUIRED_SETS. */
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
