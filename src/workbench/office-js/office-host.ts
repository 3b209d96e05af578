/**
 * The Office host around Microsoft's client, as a named Excel (fake-excel/profiles.ts) gives it: the
 * `Office.context` the add-in reads (requirement sets, diagnostics, partition key). In Excel, Office.js's loader
 * gets that context from the host and hands it out through `OSF._OfficeAppFactory`, whose `getContext` is what
 * the library's `Office.context` getter returns; here that factory answers with the profile's context, and
 * `requirements` is Microsoft's own `OfficeExt.Requirement.RequirementMatrix` over the profile's sets. So both
 * the add-in and Microsoft's client (which refuses a member above the profile with ApiNotFound, checking
 * `window.Office.context.requirements`) see the same Excel.
 */
import { currentProfile, profileOf, setCurrentProfile, type ExcelProfile, type ProfileId } from "../fake-excel/profiles";
import { OfficeJsMissingError } from "./library";

export { currentProfile };

/** What the library's `Office.context` getter returns, as far as the add-in reads it (Office.Context's members of those names). */
interface OfficeHostContext {
  requirements: Office.RequirementSetSupport;
  diagnostics: { host: "Excel"; platform: ExcelProfile["platform"]; version: string };
  partitionKey: string | undefined;
}

interface Osf {
  _OfficeAppFactory?: { getContext(): OfficeHostContext; getHostInfo(): { hostType: string; hostPlatform: string; hostSpecificFileVersion: string } };
}

interface OfficeExt {
  Requirement: { RequirementMatrix: new (setMap: { _sets: Record<string, string> }) => Office.RequirementSetSupport };
}

/** A global the library's script defined (untyped there: its type is what the caller names). */
function scriptGlobal<T>(name: string): T {
  const value: T | undefined = Reflect.get(globalThis, name);
  if (!value) throw new OfficeJsMissingError(`Microsoft's Office.js client is not loaded (no ${name}).`);
  return value;
}

/** Makes this realm's Office host the named Excel; returns it. */
export function useExcelProfile(id: ProfileId | ExcelProfile): ExcelProfile {
  const profile = typeof id === "string" ? profileOf(id) : id;
  setCurrentProfile(profile);
  const sets = Object.fromEntries(Object.entries(profile.sets).map(([name, version]) => [name.toLowerCase(), version]));
  const { RequirementMatrix } = scriptGlobal<OfficeExt>("OfficeExt").Requirement;
  const context: OfficeHostContext = {
    requirements: new RequirementMatrix({ _sets: sets }),
    diagnostics: { host: "Excel", platform: profile.platform, version: profile.version },
    partitionKey: profile.partitionKey,
  };
  scriptGlobal<Osf>("OSF")._OfficeAppFactory = {
    getContext: () => context,
    getHostInfo: () => ({ hostType: "excel", hostPlatform: profile.platform === "PC" ? "win32" : "web", hostSpecificFileVersion: "16.00" }),
  };
  return profile;
}
