/**
 * A message from the service is shown in the taskpane as text, never parsed as markup: an `<img onerror>` in
 * a server's error body appears literally in the status line and no element is created from it. The real
 * taskpane app on linkedom's DOM, in a child process (markup-probe.ts) because jest cannot load linkedom's
 * ESM-only dependencies.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../support/process";

const MARKUP = `<img src=x onerror="window.__pwned=1"><b>bold</b>`;
jest.setTimeout(60_000);

interface Probed { name: string; className: string; text: string; children: number; html: string; images: number; bolds: number }

let probed: Probed[];
beforeAll(async () => {
  const { stdout } = await promisify(execFile)(join(ROOT, "node_modules/.bin/tsx"), [join(__dirname, "markup-probe.ts"), MARKUP], { cwd: ROOT });
  probed = stdout.trim().split("\n").map((line) => JSON.parse(line) as Probed);
});

it("every case ran", () => {
  expect(probed.map((p) => p.name).sort()).toEqual(["400", "403", "404", "500"]);
});

it.each(["403", "404", "500", "400"])("markup in the service's message on a %s is shown as literal text, creating no element", (name) => {
  const p = probed.find((x) => x.name === name)!;
  expect(p.className).toBe("error");
  expect(p.text).toContain(MARKUP);
  expect(p.children).toBe(0);
  expect(p.images).toBe(0);
  expect(p.bolds).toBe(0);
  expect(p.html).toContain("&lt;img src=x onerror=");
});
