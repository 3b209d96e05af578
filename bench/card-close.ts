/**
 * Issue 45's benchmark: a card close of 5,000 movements against a subsidiary of 20,000 expenses, from a
 * sandbox of its own (--card-close) answering after LATENCY_MS, into the in-memory Excel in a worker thread
 * at ROUND_TRIP_MS a request, through the real adapter and Microsoft's Office.js client.
 *
 * Timed, interleaved round after round (medians), each on a fresh workbook:
 * - the close: writeCardClose (reads the card, the movements and the expenses, matches, writes the four tables);
 * - the baseline, loading the two lists alone: the period's movements and the subsidiary's expenses loaded
 *   into tables by the add-in's own load (what a person does before reconciling by hand);
 * - the match alone, every record in hand, for reference.
 * Target: the close under 2x the baseline. Then the matcher's precision and recall against the sandbox's
 * hidden truth at three seeds and three scales (generated in this process: the truth is in no answer).
 */
import { SpendClient } from "../src/api";
import { matchCard } from "../src/domain/card-match";
import { generateDemoData } from "../src/sandbox/demo-data";
import { loadTable, writeCardClose, type LoadParams } from "../src/sheets";
import { ExcelWorkbook } from "../src/sheets/excel";
import { matchInputOf, readCardClose } from "../src/sheets/card-close/read";
import { describeFigures, scoreAgainstTruth } from "../test/support/card-close-truth";
import { interleaved, table } from "./measure";
import { RemoteExcel } from "./remote-excel";
import { startSandboxProcess } from "./sandbox-process";

const MOVEMENTS = 5000;
/** Besides the holders' own: the subsidiary then holds about 20,000 expenses. */
const COLLEAGUES_EXPENSES = 13000;
const LATENCY_MS = 50;
const ROUND_TRIP_MS = 20;
const ROUNDS = 3;

export async function benchCardClose(): Promise<void> {
  const sandbox = await startSandboxProcess(["--latency", String(LATENCY_MS), "--seed", "1", "--card-close", String(MOVEMENTS),
    "--card-close-expenses", String(COLLEAGUES_EXPENSES)]);
  const excel = new RemoteExcel(ROUND_TRIP_MS);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const client = new SpendClient({ baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: enterprise.api_key });
    const card = enterprise.cards.at(-2)!;
    const query = { cardId: card.id, billingPeriodId: card.billing_periods[0], subsidiaryIds: [enterprise.subsidiaries[0]] };
    const movementsParams: LoadParams = { resource: "movements", enterpriseId: enterprise.id, cardId: query.cardId, billingPeriodId: query.billingPeriodId };
    const expensesParams: LoadParams = { resource: "expenses", enterpriseId: enterprise.id, subsidiaryId: query.subsidiaryIds[0] };
    const inHand = await readCardClose(client, query);
    const runs = await interleaved(ROUNDS, {
      close: async (clock) => {
        await excel.reset();
        clock.start();
        return writeCardClose(client, new ExcelWorkbook(excel), query);
      },
      load: async (clock) => {
        await excel.reset();
        clock.start();
        const workbook = new ExcelWorkbook(excel);
        const movements = await loadTable(client, workbook, movementsParams);
        const expenses = await loadTable(client, workbook, expensesParams);
        return movements.count + expenses.count;
      },
      match: async () => matchCard(matchInputOf(inHand)).outcomes.length,
    });
    const ratio = runs.close.ms / runs.load.ms;
    const report = runs.close.value;
    console.log(`\nCard close: ${inHand.movements.length} movements, ${inHand.expenses.length} expenses read by the close; the two lists loaded hold ${runs.load.value} rows`);
    console.log(table([
      ["way", "median ms", "runs ms"],
      ["close (read, match, write 4 tables)", Math.round(runs.close.ms), runs.close.all.join(", ")],
      ["load the two lists alone (baseline)", Math.round(runs.load.ms), runs.load.all.join(", ")],
      ["match alone, records in hand", Math.round(runs.match.ms), runs.match.all.join(", ")],
    ]));
    console.log(`close / load = ${ratio.toFixed(2)}x (target under 2x): ${ratio < 2 ? "met" : "NOT met"}`);
    console.log(`outcomes: ${JSON.stringify(report.outcomes)}; chase ${report.chase}, no charge ${report.uncharged}`);
  } finally {
    await excel.close();
    await sandbox.stop();
  }
  console.log("\nThe matcher against the sandbox's hidden truth (movements in the first close card's period):");
  for (const movements of [150, 1000, MOVEMENTS]) {
    for (const seed of [1, 2, 3]) {
      const data = generateDemoData({ seed, scale: 1, anchor: "2026-11-01", cardClose: { movements } });
      console.log(describeFigures(`${movements} movements, seed ${seed}`, scoreAgainstTruth(data).figures));
    }
  }
}
