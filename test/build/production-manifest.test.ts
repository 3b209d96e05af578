/** The production manifest: the add-in's URL everywhere, the gateway's origin among the AppDomains, and still valid. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkManifest } from "../../tools/manifest-check";
import { ROOT } from "../support/process";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { productionManifest } = require("../../tools/production-manifest.js");
const source = readFileSync(join(ROOT, "manifest.xml"), "utf8");

it("moves every development URL to ADDIN_URL and adds the gateway's origin to AppDomains, once", () => {
  const out: string = productionManifest(source, "https://addin.example.com/app", "https://gateway.example.com/base/path");
  expect(out).not.toMatch(/localhost|127\.0\.0\.1/);
  expect(out).toContain("https://addin.example.com/app/taskpane.html");
  expect(out.match(/<AppDomain>[^<]*<\/AppDomain>/g)).toEqual(["<AppDomain>https://addin.example.com</AppDomain>", "<AppDomain>https://gateway.example.com</AppDomain>"]);
  expect(productionManifest(out, "https://addin.example.com/app", "https://gateway.example.com")).toBe(out);
  expect(checkManifest(out, { assetsDir: join(ROOT, "assets") })).toEqual([]);
});

it("refuses a gateway that is not https, and adds nothing without one", () => {
  expect(() => productionManifest(source, "https://addin.example.com/", "http://gateway.example.com")).toThrow(/GATEWAY_URL must be https/);
  expect(productionManifest(source, "https://addin.example.com/", undefined).match(/<AppDomain>/g)).toHaveLength(1);
});
