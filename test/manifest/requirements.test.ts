/**
 * The requirement sets of manifest.xml against src/requirements.ts: each planted mistake is caught with a message
 * that says what to fix, so Office never runs code on an Excel the manifest let in without the APIs it calls.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkManifest } from "../../tools/manifest-check";
import { checkRequirements } from "../../tools/manifest-requirements";
import { REQUIRED_CUSTOM_FUNCTIONS_RUNTIME, REQUIRED_EXCEL_API, REQUIRED_SHARED_RUNTIME, type RequiredSet } from "../../src/requirements";
import { DOMParser } from "@xmldom/xmldom";
import { ROOT } from "../support/process";

const manifest = readFileSync(join(ROOT, "manifest.xml"), "utf8");
const check = (xml: string) => checkManifest(xml, { assetsDir: join(ROOT, "assets"), allowLocalhost: true });
const excelSet = `<Set Name="ExcelApi" MinVersion="${REQUIRED_EXCEL_API}"/>`;
const functionsSet = `<Set Name="CustomFunctionsRuntime" MinVersion="${REQUIRED_CUSTOM_FUNCTIONS_RUNTIME}"/>`;
const sharedSet = `<Set Name="SharedRuntime" MinVersion="${REQUIRED_SHARED_RUNTIME}"/>`;

it("manifest.xml declares exactly the versions of src/requirements.ts, each where it belongs", () => {
  expect(manifest).toContain(excelSet);
  expect(manifest).toContain(functionsSet);
  expect(manifest).toContain(sharedSet);
  expect(check(manifest)).toEqual([]);
});

it("a set that is missing, lower, higher or not a version fails the check", () => {
  expect(check(manifest.replace(excelSet, ""))).toEqual([`the <Requirements> of the VersionOverrides does not declare ExcelApi; the code needs ExcelApi ${REQUIRED_EXCEL_API}.`]);
  expect(check(manifest.replace(functionsSet, ""))).toEqual([`the <Requirements> of the VersionOverrides does not declare CustomFunctionsRuntime; the code needs CustomFunctionsRuntime ${REQUIRED_CUSTOM_FUNCTIONS_RUNTIME}.`]);
  expect(check(manifest.replace(sharedSet, ""))).toEqual([`the <Requirements> of the base manifest does not declare SharedRuntime; the code needs SharedRuntime ${REQUIRED_SHARED_RUNTIME}.`]);
  expect(check(manifest.replace(excelSet, '<Set Name="ExcelApi" MinVersion="1.8"/>'))).toEqual([`the manifest declares ExcelApi 1.8, lower than the ${REQUIRED_EXCEL_API} the code needs (src/requirements.ts).`]);
  const higher = `1.${Number(REQUIRED_EXCEL_API.split(".")[1]) + 4}`;
  expect(check(manifest.replace(excelSet, `<Set Name="ExcelApi" MinVersion="${higher}"/>`))).toEqual([
    `the manifest declares ExcelApi ${higher}, but src/requirements.ts says ${REQUIRED_EXCEL_API}: keep them equal (the taskpane's startup check reads the constant).`]);
  expect(check(manifest.replace(functionsSet, '<Set Name="CustomFunctionsRuntime" MinVersion="one"/>'))).toEqual([`CustomFunctionsRuntime MinVersion "one" is not a version such as ${REQUIRED_CUSTOM_FUNCTIONS_RUNTIME}.`]);
});

it("a Set without MinVersion takes DefaultMinVersion, which defaults to 1.1", () => {
  const bare = manifest.replace(excelSet, '<Set Name="ExcelApi"/>');
  expect(check(bare)).toContain(`the manifest declares ExcelApi 1.1, lower than the ${REQUIRED_EXCEL_API} the code needs (src/requirements.ts).`);
  const noDefault = bare.replace(/(<Requirements>\s*<Sets) DefaultMinVersion="1.1"(>\s*<Set Name="ExcelApi"\/>)/, "$1$2");
  expect(noDefault).not.toEqual(bare);
  expect(check(noDefault)).toContain(`the manifest declares ExcelApi 1.1, lower than the ${REQUIRED_EXCEL_API} the code needs (src/requirements.ts).`);
});

it("a set in the wrong <Requirements>, repeated in both, or a <Requirements> after <Hosts> fails the check", () => {
  const movedToBase = manifest.replace(excelSet, "").replace(sharedSet, `${sharedSet}\n      ${excelSet}`);
  expect(check(movedToBase)).toEqual(["ExcelApi belongs in the <Requirements> of the VersionOverrides, not of the base manifest (src/requirements.ts says why)."]);
  const repeated = manifest.replace(functionsSet, `${functionsSet}\n        ${sharedSet}`);
  expect(check(repeated)).toEqual(["SharedRuntime is declared in both the base manifest and VersionOverrides; declare it once (a repeat has no effect)."]);
  const block = /\s*<Requirements>\s*<Sets DefaultMinVersion="1.1">\s*<Set Name="ExcelApi"[\s\S]*?<\/Requirements>/.exec(manifest)![0];
  const afterHosts = manifest.replace(block, "").replace("</Hosts>\n    <Resources>", `</Hosts>${block}\n    <Resources>`);
  expect(afterHosts).not.toEqual(manifest.replace(block, ""));
  expect(check(afterHosts)).toEqual(["<Requirements> must come before <Hosts> in <VersionOverrides>."]);
});

it("raising a constant without the manifest fails validation (the manifest follows the code, not the reverse)", () => {
  const root = new DOMParser().parseFromString(manifest, "text/xml").documentElement!;
  const next = `1.${Number(REQUIRED_EXCEL_API.split(".")[1]) + 1}`;
  const raised: RequiredSet[] = [{ name: "ExcelApi", version: next, declaredIn: "VersionOverrides", neededFor: "" }];
  expect(checkRequirements(root, raised)).toEqual([`the manifest declares ExcelApi ${REQUIRED_EXCEL_API}, lower than the ${next} the code needs (src/requirements.ts).`]);
});
