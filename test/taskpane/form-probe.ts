/**
 * Run by the-load-form-speaks-finance-words.test.ts in its own Node process (tsx): linkedom's DOM needs
 * ESM-only packages jest cannot load. Mounts the real taskpane, picks each resource in the Load form, and
 * prints what a person sees then (each shown field's label, its list's texts and values, the expand boxes),
 * one JSON line a resource.
 */
import { parseHTML } from "linkedom";
import { Session, memoryStorage } from "../../src/api";
import type { Workbook } from "../../src/sheets";
import { mountTaskpane } from "../../src/taskpane/app";
import { fakeTransport } from "../support/fake-transport";

/** The taskpane needs only the list of loaded tables from the workbook to mount. */
const emptyWorkbook = { readSetting: async () => null } as unknown as Workbook;

function main() {
  const { window } = parseHTML("<!doctype html><html><body><main id='root'></main></body></html>");
  Object.assign(globalThis, { document: window.document });
  const session = new Session(memoryStorage(), { transport: fakeTransport(() => ({ status: 500, body: {} })).transport, retry: { retries: 0 } });
  const root = window.document.getElementById("root") as unknown as HTMLElement;
  mountTaskpane(root, { session, workbook: emptyWorkbook });
  const resource = root.querySelector<HTMLSelectElement>("#resource")!;
  const form = resource.closest("form") ?? resource.parentElement!.parentElement!;
  for (const option of [...resource.querySelectorAll("option")]) {
    // linkedom's select has no value setter: choosing is selecting the option, as a click would.
    for (const o of resource.querySelectorAll("option")) o.toggleAttribute("selected", o === option);
    resource.dispatchEvent(new window.Event("change"));
    const fields = [...form.querySelectorAll<HTMLElement>(".field")].filter((f) => !f.hidden && !f.closest("[hidden]"));
    const shown = fields.map((f) => {
      const list = f.querySelector("select");
      return { label: f.querySelector("label")!.textContent, options: list ? [...list.querySelectorAll("option")].map((o) => [o.getAttribute("value"), o.textContent]) : undefined };
    });
    const box = form.querySelector("fieldset.expand")!;
    const expand = { legend: box.querySelector("legend")?.textContent, boxes: [...box.querySelectorAll("label")].map((l) => [l.querySelector("input")!.getAttribute("value"), l.textContent!.trim()]) };
    process.stdout.write(`${JSON.stringify({ resource: [option.getAttribute("value"), option.textContent], fields: shown, expand })}\n`);
  }
}

main();
