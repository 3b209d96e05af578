/** `npm run bench`: every benchmark, each printed as ratios against a baseline measured in the same run. */
import { loadOfficeJs } from "../src/workbench/office-js/node-loader";
import { benchApiLoad } from "./api-load";
import { benchCardClose } from "./card-close";
import { benchFunctions } from "./functions";
import { benchGateway } from "./gateway";
import { benchImport } from "./import";
import { benchSheetsLoad } from "./sheets-load";
import { benchSync } from "./sync";
import { benchRefresh } from "./refresh";

const benches: Record<string, () => Promise<void>> = {
  api: benchApiLoad,
  sheets: benchSheetsLoad,
  sync: benchSync,
  refresh: benchRefresh,
  functions: benchFunctions,
  gateway: benchGateway,
  "card-close": benchCardClose,
  import: benchImport,
};

async function main(): Promise<void> {
  // Microsoft's Office.js client: the add-in reaches the in-memory Excel through it, as it reaches Excel.
  loadOfficeJs();
  const only = process.argv.slice(2);
  for (const [name, bench] of Object.entries(benches)) {
    if (only.length > 0 && !only.includes(name)) continue;
    await bench();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
