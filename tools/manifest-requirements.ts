/**
 * The requirement-set part of the offline manifest check: manifest.xml declares each set of
 * src/requirements.ts, in the <Requirements> that constant says, at exactly the version the code (and the
 * taskpane's startup check) uses.
 *
 * Manifest rules, from Microsoft's reference:
 * - <Sets DefaultMinVersion> defaults to "1.1"; a <Set> without MinVersion takes it:
 *   https://learn.microsoft.com/javascript/api/manifest/sets, https://learn.microsoft.com/javascript/api/manifest/set
 * - In <VersionOverrides> (task pane 1.0), <Requirements> comes after <Description> and before <Hosts>:
 *   https://learn.microsoft.com/javascript/api/manifest/versionoverrides-1-0-taskpane
 * - A set repeated from the base manifest inside <VersionOverrides> "has no effect and is potentially misleading":
 *   https://learn.microsoft.com/javascript/api/manifest/requirements#remarks
 */
import { REQUIRED_SETS, compareVersions, type RequiredSet } from "../src/requirements";

const DEFAULT_MIN_VERSION = "1.1";

const childElements = (parent: Element): Element[] => Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1);
const child = (parent: Element | undefined, name: string): Element | undefined => parent && childElements(parent).find((e) => e.localName === name);

/** Set name -> declared minimum version, from one <Requirements> element. */
function declaredSets(requirements: Element | undefined): Map<string, string> {
  const sets = new Map<string, string>();
  if (!requirements) return sets;
  for (const group of childElements(requirements).filter((e) => e.localName === "Sets")) {
    const fallback = group.getAttribute("DefaultMinVersion") || DEFAULT_MIN_VERSION;
    for (const set of childElements(group).filter((e) => e.localName === "Set")) {
      sets.set(set.getAttribute("Name") ?? "", set.getAttribute("MinVersion") || fallback);
    }
  }
  return sets;
}

export function checkRequirements(root: Element, required: readonly RequiredSet[] = REQUIRED_SETS): string[] {
  const problems: string[] = [];
  const overrides = child(root, "VersionOverrides");
  const declared: Record<RequiredSet["declaredIn"], Map<string, string>> = {
    "base manifest": declaredSets(child(root, "Requirements")),
    VersionOverrides: declaredSets(child(overrides, "Requirements")),
  };

  if (overrides) {
    const names = childElements(overrides).map((e) => e.localName);
    const at = (name: string) => names.indexOf(name);
    if (at("Requirements") >= 0 && at("Hosts") >= 0 && at("Requirements") > at("Hosts")) problems.push("<Requirements> must come before <Hosts> in <VersionOverrides>.");
    if (at("Requirements") >= 0 && at("Description") > at("Requirements")) problems.push("<Description> must come before <Requirements> in <VersionOverrides>.");
  }
  for (const name of declared["base manifest"].keys()) {
    if (declared.VersionOverrides.has(name)) problems.push(`${name} is declared in both the base manifest and VersionOverrides; declare it once (a repeat has no effect).`);
  }

  for (const set of required) {
    const other = set.declaredIn === "base manifest" ? "VersionOverrides" : "base manifest";
    const version = declared[set.declaredIn].get(set.name);
    if (version === undefined) {
      problems.push(declared[other].has(set.name)
        ? `${set.name} belongs in the <Requirements> of the ${set.declaredIn}, not of the ${other} (src/requirements.ts says why).`
        : `the <Requirements> of the ${set.declaredIn} does not declare ${set.name}; the code needs ${set.name} ${set.version}.`);
    } else if (!/^\d+(\.\d+)+$/.test(version)) {
      problems.push(`${set.name} MinVersion "${version}" is not a version such as ${set.version}.`);
    } else if (compareVersions(version, set.version) < 0) {
      problems.push(`the manifest declares ${set.name} ${version}, lower than the ${set.version} the code needs (src/requirements.ts).`);
    } else if (compareVersions(version, set.version) > 0) {
      problems.push(`the manifest declares ${set.name} ${version}, but src/requirements.ts says ${set.version}: keep them equal (the taskpane's startup check reads the constant).`);
    }
  }
  return problems;
}
