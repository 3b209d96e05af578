/**
 * Offline structural checks of manifest.xml (the online validator is unreachable from CI): it parses; the
 * top-level elements come in the order Office requires; every resid is defined in Resources; the shared
 * runtime, the custom functions page, the function file and the taskpane use the same runtime resid; the
 * namespace is SPEND; the ribbon's buttons run the page's functions (ExecuteFunction) and open its one task pane
 * (one TaskpaneId); every URL is https; the icons exist at the sizes Office asks for; the requirement sets are
 * those of src/requirements.ts, where that file says (tools/manifest-requirements.ts).
 */
import { DOMParser } from "@xmldom/xmldom";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkRequirements } from "./manifest-requirements";

/** OfficeApp's children, in the order the schema requires (optional ones may be absent). */
const ORDER = [
  "Id", "AlternateId", "Version", "ProviderName", "DefaultLocale", "DisplayName", "Description", "IconUrl", "HighResolutionIconUrl",
  "SupportUrl", "AppDomains", "Hosts", "Requirements", "DefaultSettings", "Permissions", "VersionOverrides",
];
const REQUIRED = ["Id", "Version", "ProviderName", "DefaultLocale", "DisplayName", "Description", "IconUrl", "SupportUrl", "Hosts", "DefaultSettings", "Permissions", "VersionOverrides"];

export function checkManifest(xml: string, options: { assetsDir?: string; allowLocalhost?: boolean } = {}): string[] {
  const problems: string[] = [];
  const errors: string[] = [];
  const doc = new DOMParser({ errorHandler: { error: (m: string) => errors.push(m), fatalError: (m: string) => errors.push(m), warning: () => undefined } })
    .parseFromString(xml, "text/xml");
  if (errors.length > 0 || !doc.documentElement) return [`manifest.xml does not parse: ${errors.join("; ")}`];
  const root = doc.documentElement;
  if (root.localName !== "OfficeApp") return [`the root element is ${root.localName}, not OfficeApp`];
  if (root.getAttribute("xsi:type") !== "TaskPaneApp") problems.push("OfficeApp must be xsi:type TaskPaneApp (custom functions and a taskpane).");

  const children = Array.from(root.childNodes).filter((n): n is Element => n.nodeType === 1).map((e) => e.localName);
  for (const name of REQUIRED) if (!children.includes(name)) problems.push(`<${name}> is required under OfficeApp.`);
  const positions = children.map((c) => ORDER.indexOf(c));
  children.forEach((c, i) => {
    if (positions[i] < 0) problems.push(`<${c}> is not an element Office allows under OfficeApp.`);
    else if (i > 0 && positions[i] < positions[i - 1]) problems.push(`<${c}> must come before <${children[i - 1]}> (Office requires the schema's order).`);
  });

  problems.push(...checkRequirements(root));

  const all = Array.from(doc.getElementsByTagName("*"));
  const defined = new Set<string>();
  for (const el of all) {
    if (["Image", "Url", "String"].includes(el.localName) && el.getAttribute("id")) defined.add(el.getAttribute("id")!);
  }
  const used = all.filter((el) => el.getAttribute("resid")).map((el) => [el.localName, el.getAttribute("resid")!] as const);
  for (const [tag, resid] of used) if (!defined.has(resid)) problems.push(`<${tag} resid="${resid}"> names a resource that Resources does not define.`);

  const runtimes = all.filter((el) => el.localName === "Runtime");
  if (runtimes.length !== 1) problems.push(`one shared runtime is expected; found ${runtimes.length}.`);
  const runtime = runtimes[0]?.getAttribute("resid");
  if (runtimes[0] && runtimes[0].getAttribute("lifetime") !== "long") problems.push('the shared runtime needs lifetime="long".');
  const customFunctions = all.find((el) => el.localName === "ExtensionPoint" && el.getAttribute("xsi:type") === "CustomFunctions");
  if (!customFunctions) problems.push("the CustomFunctions extension point is missing.");
  const sameRuntime: [string, (string | null)[]][] = [
    ["the custom functions <Page>", customFunctions ? Array.from(customFunctions.getElementsByTagName("*")).filter((e) => e.localName === "SourceLocation" && (e.parentNode as Element).localName === "Page").map((e) => e.getAttribute("resid")) : []],
    ["<FunctionFile>", all.filter((e) => e.localName === "FunctionFile").map((e) => e.getAttribute("resid"))],
    ["the ShowTaskpane action", all.filter((e) => e.localName === "Action" && e.getAttribute("xsi:type") === "ShowTaskpane").map((e) => Array.from(e.getElementsByTagName("*")).find((c) => c.localName === "SourceLocation")?.getAttribute("resid") ?? null)],
  ];
  for (const [what, resids] of sameRuntime) {
    if (resids.length === 0) problems.push(`${what} is missing.`);
    for (const r of resids) if (r !== runtime) problems.push(`${what} uses resid "${r}", not the shared runtime's "${runtime}".`);
  }
  const namespace = all.find((e) => e.localName === "Namespace")?.getAttribute("resid");
  const namespaceValue = all.find((e) => e.localName === "String" && e.getAttribute("id") === namespace)?.getAttribute("DefaultValue");
  if (namespaceValue !== "SPEND") problems.push(`the custom functions namespace must be SPEND; it is ${namespaceValue ?? "missing"}.`);
  problems.push(...checkCommands(all));

  const urls = all.flatMap((el) => {
    const values = [el.getAttribute("DefaultValue") ?? ""];
    if (el.localName === "AppDomain") values.push(el.textContent?.trim() ?? "");
    return values.filter((v) => /^[a-z]+:\/\//i.test(v)).map((v) => [el.localName, v] as const);
  });
  for (const [tag, url] of urls) {
    if (!url.startsWith("https://")) problems.push(`<${tag}> ${url} must be https.`);
    if (!options.allowLocalhost && /\/\/(localhost|127\.0\.0\.1)[:/]/.test(url)) problems.push(`<${tag}> ${url} still points at localhost.`);
  }
  const sizes = all.filter((e) => e.localName === "Image" && e.getAttribute("size")).map((e) => e.getAttribute("size"));
  for (const size of ["16", "32", "80"]) if (!sizes.includes(size)) problems.push(`ribbon icons need size ${size}.`);
  if (options.assetsDir) {
    for (const [, url] of urls) {
      const asset = /\/assets\/([^/?#]+)$/.exec(url)?.[1];
      if (asset && !existsSync(join(options.assetsDir, asset))) problems.push(`${url} names assets/${asset}, which does not exist.`);
    }
  }
  return problems;
}

/**
 * The ribbon's commands: each button that runs code is an ExecuteFunction action naming a function the page
 * associates (Office.actions.associate in src/shared-runtime.ts); the task pane is one: a shared runtime "only
 * supports the use of one task pane. Note that any task pane without a <TaskpaneID> is considered a different task
 * pane" (configure-your-add-in-to-use-a-shared-runtime).
 */
function checkCommands(all: Element[]): string[] {
  const problems: string[] = [];
  for (const name of ["refreshData", "syncStates"]) {
    const runs = all.some((e) => e.localName === "FunctionName" && e.textContent?.trim() === name
      && (e.parentNode as Element | null)?.localName === "Action" && (e.parentNode as Element).getAttribute("xsi:type") === "ExecuteFunction");
    if (!runs) problems.push(`no ribbon button runs ${name} (an ExecuteFunction action naming it).`);
  }
  const panes = all.filter((e) => e.localName === "Action" && e.getAttribute("xsi:type") === "ShowTaskpane")
    .map((e) => Array.from(e.getElementsByTagName("*")).find((c) => c.localName === "TaskpaneId")?.textContent?.trim() ?? "");
  if (panes.includes("")) problems.push("a ShowTaskpane action has no <TaskpaneId>: under the shared runtime it would open a second task pane.");
  if (new Set(panes).size > 1) problems.push(`the ShowTaskpane actions name ${new Set(panes).size} task panes; a shared runtime supports one.`);
  return problems;
}
