/**
 * What of the add-in an Excel gives the person, from the manifest's requirements (src/requirements.ts says
 * where each set is declared): "If the Office application or platform doesn't support the requirement sets
 * ... specified in the Requirements element of the manifest, the add-in won't run" (base manifest); where the
 * sets of <VersionOverrides> are missing, "all child elements of the VersionOverrides that override a base
 * manifest element, such as Hosts, don't take effect" (no ribbon group, no custom functions) and the base
 * manifest's taskpane opens instead.
 * https://learn.microsoft.com/javascript/api/manifest/requirements
 */
import { REQUIRED_SETS, type RequiredSet } from "../../requirements";
import { isSetSupported, type ExcelProfile } from "./profiles";

export interface AddInParts {
  /** The add-in runs at all (its taskpane opens). */
  loads: boolean;
  /** The ribbon group and the =SPEND functions are there. */
  overrides: boolean;
  /** The sets this Excel lacks, base manifest's first. */
  missing: RequiredSet[];
}

export function addInParts(profile: ExcelProfile, required: readonly RequiredSet[] = REQUIRED_SETS): AddInParts {
  const missing = required.filter((set) => !isSetSupported(profile, set.name, set.version));
  return {
    loads: !missing.some((set) => set.declaredIn === "base manifest"),
    overrides: missing.length === 0,
    missing: [...missing].sort((a, b) => (a.declaredIn === b.declaredIn ? 0 : a.declaredIn === "base manifest" ? -1 : 1)),
  };
}
