/** The offline manifest checks: the real manifest passes, and each kind of mistake is caught with a clear message. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkManifest } from "../../tools/manifest-check";
import { ROOT } from "../support/process";

const manifest = readFileSync(join(ROOT, "manifest.xml"), "utf8");
const check = (xml: string) => checkManifest(xml, { assetsDir: join(ROOT, "assets"), allowLocalhost: true });

it("manifest.xml passes: shared runtime, custom functions SPEND, ribbon commands, https, icons", () => {
  expect(check(manifest)).toEqual([]);
});

it("catches XML that does not parse, elements out of order, undefined resids, a second runtime id, http and missing icons", () => {
  expect(check(manifest.replace("</OfficeApp>", ""))[0]).toMatch(/^manifest.xml does not parse/);
  const swapped = manifest.replace(/(<Version>.*?<\/Version>)(\s*)(<ProviderName>.*?<\/ProviderName>)/, "$3$2$1");
  expect(check(swapped)).toEqual(["<Version> must come before <ProviderName> (Office requires the schema's order)."]);
  expect(check(manifest.replace('<Label resid="Group.Label"/>', '<Label resid="Group.Missing"/>'))).toContain('<Label resid="Group.Missing"> names a resource that Resources does not define.');
  expect(check(manifest.replace('<FunctionFile resid="Taskpane.Url"/>', '<FunctionFile resid="Functions.Script.Url"/>'))).toContain('<FunctionFile> uses resid "Functions.Script.Url", not the shared runtime\'s "Taskpane.Url".');
  expect(check(manifest.replace('lifetime="long"', 'lifetime="short"'))).toContain('the shared runtime needs lifetime="long".');
  expect(check(manifest.replace('DefaultValue="SPEND"', 'DefaultValue="CONTOSO"'))).toContain("the custom functions namespace must be SPEND; it is CONTOSO.");
  expect(check(manifest.replace("https://localhost:3000/functions.json", "http://localhost:3000/functions.json"))).toContain("<Url> http://localhost:3000/functions.json must be https.");
  expect(check(manifest.replace("icon-80.png", "icon-81.png"))).toContain("https://localhost:3000/assets/icon-81.png names assets/icon-81.png, which does not exist.");
  expect(check(manifest.replace("<FunctionName>syncStates</FunctionName>", "<FunctionName>sync</FunctionName>"))).toContain("no ribbon button runs syncStates (an ExecuteFunction action naming it).");
});

it("catches what the shared runtime needs of the manifest: one long-lived runtime, the functions' extension point, ExecuteFunction buttons and one task pane id", () => {
  expect(check(manifest.replace(/<Runtimes>[\s\S]*?<\/Runtimes>/, "<Runtimes></Runtimes>"))).toContain("one shared runtime is expected; found 0.");
  expect(check(manifest.replace('<ExtensionPoint xsi:type="CustomFunctions">', '<ExtensionPoint xsi:type="PrimaryCommandSurface">'))).toContain("the CustomFunctions extension point is missing.");
  const refresh = /<Action xsi:type="ExecuteFunction">(\s*)<FunctionName>refreshData<\/FunctionName>/;
  expect(manifest).toMatch(refresh);
  expect(check(manifest.replace(refresh, '<Action xsi:type="ShowTaskpane">$1<FunctionName>refreshData</FunctionName>'))).toContain("no ribbon button runs refreshData (an ExecuteFunction action naming it).");
  expect(check(manifest.replace("<TaskpaneId>SpendSync.Taskpane</TaskpaneId>", ""))).toContain("a ShowTaskpane action has no <TaskpaneId>: under the shared runtime it would open a second task pane.");
});

it("a production manifest may not point at localhost", () => {
  expect(checkManifest(manifest, { assetsDir: join(ROOT, "assets") })).toContain("<IconUrl> https://localhost:3000/assets/icon-32.png still points at localhost.");
});
