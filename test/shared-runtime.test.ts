/**
 * The shared runtime page as Office loads it: the ribbon commands exist before Office.js is ready, wait for the
 * set-up, and an Excel without the required sets sees one sentence in the taskpane, while its button presses
 * still complete. Office.js, Excel and the page are stand-ins; no timers decide anything.
 */
import { REQUIRED_EXCEL_API } from "../src/requirements";
import { installCustomFunctionsStub } from "./support/custom-functions";

/** Just enough DOM for the taskpane's notices (src/taskpane/dom.ts builds with createElement/textContent). */
class FakeElement {
  id = "";
  className = "";
  parent: FakeElement | null = null;
  children: FakeElement[] = [];
  private text = "";
  readonly attributes: Record<string, string> = {};
  constructor(readonly tagName: string) {}
  get textContent(): string { return this.text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value: string) { this.text = value; this.children = []; }
  setAttribute(name: string, value: string) { this.attributes[name] = value; }
  addEventListener() {}
  appendChild(child: FakeElement) { child.parent = this; this.children.push(child); return child; }
  prepend(child: FakeElement) { child.parent = this; this.children.unshift(child); }
  replaceChildren() { this.children = []; this.text = ""; }
  replaceWith(other: FakeElement) { const p = this.parent!; p.children[p.children.indexOf(this)] = other; other.parent = p; }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}
const settle = () => new Promise((r) => setImmediate(r));

/** What the page hands the taskpane when it mounts it (the taskpane itself is left out where a test says so). */
type MountedDeps = { recalculate?: () => Promise<void> };

function loadPage(supported: (name: string, version?: string) => boolean, excel: Record<string, unknown> = { run: jest.fn(), CalculationType: { full: "Full" } }, mounted?: (deps: MountedDeps) => void) {
  const officeReady = deferred<void>();
  const handlers = new Map<string, (event: Office.AddinCommands.Event) => void>();
  const shown: string[] = [];
  const app = new FakeElement("main");
  const g = globalThis as Record<string, unknown>;
  g.Office = {
    onReady: () => officeReady.promise,
    actions: { associate: (id: string, handler: (event: Office.AddinCommands.Event) => void) => handlers.set(id, handler) },
    context: { requirements: { isSetSupported: supported }, partitionKey: undefined, diagnostics: { version: "16.0.19000.20000", platform: "PC" } },
    addin: { showAsTaskpane: async () => void shown.push("taskpane") },
  };
  g.Excel = excel;
  g.document = {
    getElementById: (id: string) => (id === "app" ? app : null),
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => Object.assign(new FakeElement("#text"), { textContent: text }),
  };
  installCustomFunctionsStub();
  // The page's top-level code runs on load, like a <script> in taskpane.html.
  jest.isolateModules(() => {
    if (mounted) jest.doMock("../src/taskpane/app", () => ({ mountTaskpane: (_root: unknown, deps: MountedDeps) => (mounted(deps), {}) }));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously
    require("../src/shared-runtime");
  });
  const press = (id: string) => {
    const completed = jest.fn();
    handlers.get(id)!({ completed } as unknown as Office.AddinCommands.Event);
    return completed;
  };
  return { officeReady, handlers, shown, app, press };
}

const consoleError = jest.spyOn(console, "error").mockImplementation(() => undefined);
// Microsoft's Office.js client is loaded in every test realm (its `Office` and `Excel` are the script's globals,
// which cannot be deleted): the stand-ins replace them here, and the originals come back after.
const originals = Object.fromEntries(["Office", "Excel", "document"].map((name) => [name, (globalThis as Record<string, unknown>)[name]]));
afterEach(() => consoleError.mockClear());
afterAll(() => {
  consoleError.mockRestore();
  Object.assign(globalThis, originals);
});

it("registers both ribbon commands while Office.js is still starting, and a press waits for the set-up", async () => {
  const page = loadPage(() => false);
  expect([...page.handlers.keys()].sort()).toEqual(["refreshData", "syncStates"]);
  const completed = page.press("refreshData");
  await settle();
  expect(completed).not.toHaveBeenCalled();
  page.officeReady.resolve();
  await settle();
  expect(completed).toHaveBeenCalledTimes(1);
});

it("an Excel without ExcelApi: the taskpane shows only the sentence naming it, and pressing a button completes and opens the taskpane", async () => {
  const page = loadPage((name) => name !== "ExcelApi");
  page.officeReady.resolve();
  await settle();
  expect(page.app.children).toHaveLength(1);
  expect(page.app.children[0].attributes.role).toBe("alert");
  expect(page.app.textContent).toMatch(new RegExp(`^This Excel lacks ExcelApi ${REQUIRED_EXCEL_API} \\(to load and sync tables\\), so Spend Sync can't run here: .*Excel on the web`));
  const refresh = page.press("refreshData");
  const sync = page.press("syncStates");
  await settle();
  expect(refresh).toHaveBeenCalledTimes(1);
  expect(sync).toHaveBeenCalledTimes(1);
  expect(page.shown).toEqual(["taskpane", "taskpane"]);
  expect(page.app.children).toHaveLength(1);
});

it("the taskpane's recalculation marks every cell dirty (CalculationType.full), in one request of its own", async () => {
  // Microsoft's own enum (the stand-ins of the tests above replaced the global Excel).
  const library = originals.Excel as typeof Excel;
  const calculations: string[] = [];
  const syncs = jest.fn(async () => undefined);
  const run = jest.fn(async (batch: (context: unknown) => Promise<void>) => batch({ workbook: { application: { calculate: (type: string) => calculations.push(type) } }, sync: syncs }));
  let deps: MountedDeps | undefined;
  const page = loadPage(() => true, { run, CalculationType: library.CalculationType }, (mounted) => (deps = mounted));
  page.officeReady.resolve();
  await settle();
  expect(deps?.recalculate).toBeInstanceOf(Function);
  await deps!.recalculate!();
  expect([calculations, run.mock.calls.length, syncs.mock.calls.length]).toEqual([["Full"], 1, 1]);
});
