/** `npm run validate [file]`: the offline checks of manifest.xml. `npm run validate:online` runs Microsoft's validator. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkManifest } from "./manifest-check";

const file = process.argv[2] ?? join(__dirname, "..", "manifest.xml");
const dev = !process.argv.includes("--production");
const problems = checkManifest(readFileSync(file, "utf8"), { assetsDir: join(__dirname, "..", "assets"), allowLocalhost: dev });
if (problems.length > 0) {
  console.error(`${file}: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`${file}: the structure is valid (offline checks${dev ? ", development URLs allowed" : ""}).`);
