/**
 * The shared runtime page as Office loads it: the ribbon commands exist before Office.js is ready, wait for the
 * set-up, and an Excel without the required sets sees one sentence in the taskpane, while its button presses
 * still complete. Office.js, Excel and the page are stand-ins; no timers decide anything.
 */
import { REQUIRED_EXCEL_API } from "../src/requirements";
import { FakeExcel, UserActions, WorkbookModel } from "../src/workbench/fake-excel";
import { calculationsOf } from "../src/workbench/fake-excel/calculation";
import { installCustomFunctionsStub } from "./support/custom-functions";

/** Just enough DOM for the taskpane's notices (src/taskpane/dom.ts builds with createElement/textContent). */
class FakeElement {
  id = "";
  className = "";
  // Form controls' state, as the taskpane reads and sets it.
  value = "";
  disabled = false;
  checked = false;
  hidden = false;
  parent: FakeElement | null = null;
  children: FakeElement[] = [];
  private text = "";
  readonly attributes: Record<string, string> = {};
  constructor(readonly tagName: string) {}
  get textContent(): string { return this.text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value: string) { this.text = value; this.children = []; }
  setAttribute(name: string, value: string) { this.attributes[name] = value; }
  removeAttribute(name: string) { delete this.attributes[name]; }
  addEventListener() {}
  appendChild(child: FakeElement) { child.parent = this; this.children.push(child); return child; }
  prepend(child: FakeElement) { child.parent = this; this.children.unshift(child); }
  replaceChildren() { this.children = []; this.text = ""; }
  replaceWith(other: FakeElement) { const p = this.parent!; p.children[p.children.indexOf(this)] = other; other.parent = p; }
  // What the taskpane's reveal (dom.ts) reads and sets to bring a line into view: the page is its scroller here.
  get parentElement(): FakeElement | null { return this.parent; }
  scrollTop = 0;
  getBoundingClientRect() { return { top: 0 }; }
  focus() {}
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}
const settle = () => new Promise((r) => setImmediate(r));

/** `excel`: the page's `Excel` (a stand-in by default); `stored`: what the device's localStorage holds. */
function loadPage(supported: (name: string, version?: string) => boolean, options: { excel?: unknown; stored?: Record<string, string> } = {}) {
  const officeReady = deferred<void>();
  const handlers = new Map<string, (event: Office.AddinCommands.Event) => void>();
  const shown: string[] = [];
  const app = new FakeElement("main");
  const g = globalThis as Record<string, unknown>;
  g.Office = {
    // As Office.js answers inside Excel: the host and platform (outside Office, host is null).
    onReady: () => officeReady.promise.then(() => ({ host: "Excel", platform: "OfficeOnline" })),
    actions: { associate: (id: string, handler: (event: Office.AddinCommands.Event) => void) => handlers.set(id, handler) },
    context: { requirements: { isSetSupported: supported }, partitionKey: undefined, diagnostics: { version: "16.0", platform: "OfficeOnline" } },
    addin: { showAsTaskpane: async () => void shown.push("taskpane") },
  };
  g.Excel = options.excel ?? { run: jest.fn(), CalculationType: { full: "Full" } };
  const stored = new Map(Object.entries(options.stored ?? {}));
  g.localStorage = { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v), removeItem: (k: string) => void stored.delete(k) };
  g.document = {
    getElementById: (id: string) => (id === "app" ? app : null),
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => Object.assign(new FakeElement("#text"), { textContent: text }),
    scrollingElement: new FakeElement("html"),
  };
  g.getComputedStyle = () => ({ overflowY: "visible" });
  installCustomFunctionsStub();
  // The page's top-level code runs on load, like a <script> in taskpane.html.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously
  jest.isolateModules(() => require("../src/shared-runtime"));
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
const originals = Object.fromEntries(["Office", "Excel", "document", "localStorage"].map((name) => [name, (globalThis as Record<string, unknown>)[name]]));
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

/** The element of this id under `root` (the taskpane's status lines). */
function byId(root: FakeElement, id: string): FakeElement | undefined {
  if (root.id === id) return root;
  for (const child of root.children) {
    const found = byId(child, id);
    if (found) return found;
  }
  return undefined;
}

it("Refresh data recalculates this workbook's =SPEND formulas only, waiting for a cell being edited instead of failing", async () => {
  // A person types in a cell just as the recalculation starts (its first request that finds or calculates formulas).
  const typing: { edit: ReturnType<FakeExcel["user"]["beginCellEdit"]> | null } = { edit: null };
  Object.assign(globalThis, originals);
  const excel = new FakeExcel(undefined, {
    endpoint: (host) => ({
      processQuery: (body, flags) => {
        if (!typing.edit && /"Name":"(GetSpecialCells\w*|Calculate)"/.test(body)) typing.edit = excel.user.beginCellEdit("Sheet1", "A1");
        return host.processQuery(body, flags);
      },
    }),
  });
  excel.serveDefaultRequests();
  excel.user.type("Sheet1", "A2", "=SUM(A1)");
  excel.user.spill("Sheet1", "B1", "=SPEND.EXPENSES()", [["Expense ID"], ["e-1"]]);
  excel.user.type("Sheet1", "C1", '=IFERROR(SPEND.EXPENSE(A1),"")');
  const forecast = new WorkbookModel("Forecast");
  new UserActions(forecast).type("Forecast", "A1", "=SUM(B1:B9)");
  excel.host.otherWorkbooks.push(forecast);
  const connection = { baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "k-1" };
  const page = loadPage(() => true, { excel: originals.Excel, stored: { "spendsync.connection": JSON.stringify(connection) } });
  page.officeReady.resolve();
  await settle();
  const completed = page.press("refreshData");
  for (let i = 0; i < 200 && !(typing.edit && typing.edit.waiting > 0) && !completed.mock.calls.length; i++) await settle();
  expect([typing.edit === null, completed.mock.calls.length, typing.edit?.waiting]).toEqual([false, 0, 1]);
  expect(calculationsOf(excel.model, "Sheet1", "B1")).toBe(0);
  typing.edit!.end();
  for (let i = 0; i < 200 && !completed.mock.calls.length; i++) await settle();
  expect(completed).toHaveBeenCalledTimes(1);
  expect(byId(page.app, "refresh-all-status")?.textContent).toBe("No Spend Sync table in this workbook yet: load one first.");
  expect(["A2", "B1", "C1"].map((at) => calculationsOf(excel.model, "Sheet1", at))).toEqual([0, 1, 1]);
  expect(calculationsOf(forecast, "Forecast", "A1")).toBe(0);
  expect(excel.stats.requests.filter((r) => r.refused)).toEqual([]);
});
