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

interface Probed { name: string; className: string; text: string; children: string[]; html: string; images: number; bolds: number }

/**
 * The status line's own elements, by case: a refused key names no request to detail; the others name theirs in words
 * (the 404 on the card list says the base URL looks wrong, "the request for page 1 of the corporate cards"), its URL on
 * the details line (issue 43).
 */
const DETAILS: Record<string, string[]> = { "403": [], "404": ["span.details"], "500": ["span.details"], "400": ["span.details"] };

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
  // No element but the status line's own: the request's details line (status.ts, text only) where the answer names one.
  expect(p.children).toEqual(DETAILS[name]);
  expect(p.images).toBe(0);
  expect(p.bolds).toBe(0);
  expect(p.html).toContain("&lt;img src=x onerror=");
});
