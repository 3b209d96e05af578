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
  expect(check(manifest.replace("<FunctionName>syncStates</FunctionName>", "<FunctionName>sync</FunctionName>"))).toContain("no ribbon button runs syncStates.");
});

it("a production manifest may not point at localhost", () => {
  expect(checkManifest(manifest, { assetsDir: join(ROOT, "assets") })).toContain("<IconUrl> https://localhost:3000/assets/icon-32.png still points at localhost.");
});
