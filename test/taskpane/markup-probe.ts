/**
 * Run by markup.test.ts in its own Node process (tsx): linkedom's DOM needs ESM-only packages that jest's
 * module system cannot load. Mounts the real taskpane, connects against a scripted service whose error bodies
 * carry the markup given as the first argument, and prints what the connection status shows, one JSON line a case.
 */
import { parseHTML } from "linkedom";
import { Session, memoryStorage } from "../../src/api";
import type { Workbook } from "../../src/sheets";
import { mountTaskpane } from "../../src/taskpane/app";
import { fakeTransport, type Reply } from "../support/fake-transport";

/** The hostile text, given by the test on the command line. */
const MARKUP = process.argv[2] ?? "";

/** The taskpane needs only the list of loaded tables from the workbook to mount. */
const emptyWorkbook = { readSetting: async () => null } as unknown as Workbook;

const CASES: Record<string, Reply> = {
  "403": { status: 403, body: { status: 403, error: MARKUP } },
  "404": { status: 404, body: { status: 404, error: MARKUP } },
  "500": { status: 500, body: { status: 500, error: MARKUP } },
  "400": { status: 400, body: { status: 400, error: MARKUP } },
};

async function probe(name: string, reply: Reply) {
  const { window } = parseHTML("<!doctype html><html><body><main id='root'></main></body></html>");
  Object.assign(globalThis, { document: window.document });
  const session = new Session(memoryStorage(), { transport: fakeTransport(() => reply).transport, retry: { retries: 0 } });
  const root = window.document.getElementById("root") as unknown as HTMLElement;
  mountTaskpane(root, { session, workbook: emptyWorkbook });
  (root.querySelector("#base-url") as HTMLInputElement).value = "https://spend.example";
  (root.querySelector("#enterprise-id") as HTMLInputElement).value = "ent-1";
  (root.querySelector("#api-key") as HTMLInputElement).value = "sk_test_markup";
  root.querySelector("form")!.dispatchEvent(new window.Event("submit"));
  const status = root.querySelector("#connect-status")!;
  for (let i = 0; i < 200 && status.className !== "error"; i++) await new Promise((r) => setTimeout(r, 5));
  return {
    name, className: status.className, text: status.textContent, children: [...status.children].map((c) => `${c.tagName.toLowerCase()}.${c.className}`), html: status.innerHTML,
    images: window.document.querySelectorAll("img").length, bolds: window.document.querySelectorAll("b").length,
  };
}

async function main() {
  for (const [name, reply] of Object.entries(CASES)) process.stdout.write(`${JSON.stringify(await probe(name, reply))}\n`);
}

void main();
