/**
 * Named Excels the in-memory Excel can be, each with the requirement sets Microsoft's tables give it:
 * - ExcelApi: https://learn.microsoft.com/javascript/api/requirement-sets/excel/excel-api-requirement-sets
 * - CustomFunctionsRuntime: https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets
 * - SharedRuntime: https://learn.microsoft.com/javascript/api/requirement-sets/common/shared-runtime-requirement-sets
 * - RibbonApi: the common requirement-set page beside them.
 * The other common sets are not each Excel's: every profile reports the same AddinCommands 1.1 and DialogApi 1.2
 * (COMMON), and none of the rest (IdentityAPI, DialogOrigin, ...). The add-in asks for none of them; only the
 * manifest needs AddinCommands 1.1 (its ribbon), which every Excel here has.
 * Office LTSC 2024 is Version 2408 (the Word table's volume-licensed column names it; the Excel tables give
 * Office 2024 the sets up to ExcelApi 1.17 and no CustomFunctionsRuntime 1.4). docs/excel-checks.md has the
 * table lines quoted.
 *
 * "DelayForCellEdit" is a set Office.js asks for before it sends Excel.RunOptions.delayForCellEdit (its
 * `onBeforeExcelRun`); no Microsoft table lists it, so every profile has it (a test turns it off to show what
 * then happens).
 */

export type ProfileId = "office-2021" | "office-2024" | "m365-2302" | "m365-current" | "web";

export interface ExcelProfile {
  id: ProfileId;
  /** What the person would call this Excel. */
  name: string;
  /** Office.context.diagnostics.platform (Office.PlatformType). */
  platform: "PC" | "OfficeOnline";
  /** Office.context.diagnostics.version: "16.0.<build>.<revision>" on Windows. */
  version: string;
  /** The highest version of each requirement set this Excel has. */
  sets: Readonly<Record<string, string>>;
  /** Office.context.partitionKey: undefined where storage is not partitioned (Windows), a string on the web. */
  partitionKey?: string;
}

const COMMON = { AddinCommands: "1.1", DialogApi: "1.2", DelayForCellEdit: "1.1" };

export const PROFILES: readonly ExcelProfile[] = [
  {
    id: "office-2021", name: "Office 2021 (volume-licensed, Version 2108)", platform: "PC", version: "16.0.14332.20011",
    sets: { ...COMMON, ExcelApi: "1.14", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1", RibbonApi: "1.2" },
  },
  {
    id: "office-2024", name: "Office 2024 (volume-licensed, Version 2408)", platform: "PC", version: "16.0.17928.20114",
    sets: { ...COMMON, ExcelApi: "1.17", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.2", RibbonApi: "1.2" },
  },
  {
    id: "m365-2302", name: "Microsoft 365 Version 2302 (ExcelApi 1.17, before 1.19)", platform: "PC", version: "16.0.16130.20332",
    sets: { ...COMMON, ExcelApi: "1.17", CustomFunctionsRuntime: "1.4", SharedRuntime: "1.2", RibbonApi: "1.2" },
  },
  {
    id: "m365-current", name: "Microsoft 365 Version 2606", platform: "PC", version: "16.0.20131.20090",
    sets: { ...COMMON, ExcelApi: "1.21", ExcelApiDesktop: "1.1", CustomFunctionsRuntime: "1.5", SharedRuntime: "1.2", RibbonApi: "1.3" },
  },
  {
    id: "web", name: "Excel on the web", platform: "OfficeOnline", version: "16.0.20131.20090",
    sets: { ...COMMON, ExcelApi: "1.21", ExcelApiOnline: "1.1", CustomFunctionsRuntime: "1.5", SharedRuntime: "1.2", RibbonApi: "1.3" },
    partitionKey: "spendsync.example.com_excel.cloud.microsoft",
  },
];

/** The Excel the tests and the workbench are unless they say otherwise. */
export const DEFAULT_PROFILE: ProfileId = "m365-current";

let current: ExcelProfile | undefined;

/** The Excel this realm is (set with the Office host around it: office-js/office-host.ts). */
export function currentProfile(): ExcelProfile {
  return (current ??= profileOf(DEFAULT_PROFILE));
}

export function setCurrentProfile(profile: ExcelProfile): void {
  current = profile;
}

/** A profile id the workbench does not have (a typo in ?excel=). */
class UnknownProfileError extends Error {
  override readonly name = "UnknownProfileError";
}

export function profileOf(id: string): ExcelProfile {
  const found = PROFILES.find((p) => p.id === id);
  if (!found) throw new UnknownProfileError(`No Excel profile '${id}'; there are ${PROFILES.map((p) => p.id).join(", ")}.`);
  return found;
}

/** "1.16" as { major: 1, minor: 16 } (a third part is ignored); null when it is not a version. */
function versionOf(text: string): { major: number; minor: number } | null {
  const [major, minor = "0"] = text.split(".");
  if (!text.includes(".") && Number.isNaN(Number(text))) return null;
  const out = { major: Number(major), minor: Number(minor) };
  return Number.isNaN(out.major) || Number.isNaN(out.minor) ? null : out;
}

/**
 * Office.context.requirements.isSetSupported as Office.js's own `OfficeExt.Requirement.RequirementMatrix`
 * answers it (test/workbench/profiles.test.ts compares the two): the set's name in any case; an unknown set is
 * not supported; no version asks for the set at all; versions compare by major then minor as numbers ("1.16" is
 * above "1.9"); a number is read as its text, so 1.10 is "1.1" (why the d.ts deprecates that overload). The
 * in-memory Excel asks it for what each request does; the add-in asks Microsoft's matrix (office-host.ts).
 */
export function isSetSupported(profile: ExcelProfile, name: string, minVersion?: string | number): boolean {
  // Asked for every action of every request (host.ts), always of a few sets: each answer is kept per profile
  // object (a profile's sets never change: a different Excel is a new object).
  let answers = answered.get(profile);
  if (!answers) answered.set(profile, (answers = new Map()));
  const key = `${typeof minVersion}:${String(minVersion)}:${typeof name}:${String(name)}`;
  let answer = answers.get(key);
  if (answer === undefined) answers.set(key, (answer = supported(profile, name, minVersion)));
  return answer;
}

const answered = new WeakMap<ExcelProfile, Map<string, boolean>>();

function supported(profile: ExcelProfile, name: string, minVersion?: string | number): boolean {
  if (name === undefined || name === null) return false;
  const entry = Object.entries(profile.sets).find(([set]) => set.toLowerCase() === String(name).toLowerCase());
  if (!entry) return false;
  const have = versionOf(entry[1]);
  const want = versionOf(String(minVersion ?? 0));
  if (!have || !want || have.major <= 0) return false;
  return have.major > want.major || (have.major === want.major && have.minor >= want.minor);
}
