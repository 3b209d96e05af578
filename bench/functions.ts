/**
 * Issue 27's benchmark of the record functions: 5,000 distinct =SPEND.EXPENSE(sub, id, "state") cells of one
 * subsidiary holding 6,000 expenses, from a sandbox answering after 100 ms (a process of its own), then the
 * same sheet recalculated (answered by the cache). Batched (record-batch.ts) against one GET per cell
 * (`batching: false`, the code path before issue 27, 6 calls at a time as the governor allows): the fair
 * baseline. Every cell's call is made at once, as Excel hands a recalculation to the runtime. The two ways
 * run interleaved, round after round after a warm-up round, each with a fresh session (an empty cache), and
 * each figure is a median; the cells' results are compared, cell for cell, in every round.
 */
import { Session, SpendClient, listExpenses, memoryStorage } from "../src/api";
import { expense } from "../src/functions/functions";
import { useSession } from "../src/functions/runtime";
import { interleaved, table } from "./measure";
import { startSandboxProcess } from "./sandbox-process";

const ROUNDS = 3;
const LATENCY_MS = 100;
const CELLS = 5000;
/** Scale 20: the first subsidiary holds 6,000 expenses (six list pages of 1,000). */
const SCALE = 20;

interface Pass {
  ms: number;
  requests: number;
}

interface Sheet {
  first: Pass;
  recalc: Pass;
  /** What the cells show, as JSON (the comparison of the two ways). */
  shown: string;
}

/** The CustomFunctions global Excel's runtime gives the functions (their errors are built with it); Node has none. */
function installCustomFunctions(): void {
  if (Reflect.get(globalThis, "CustomFunctions")) return;
  class FunctionError {
    constructor(readonly code: string, readonly message?: string) {}
  }
  Reflect.set(globalThis, "CustomFunctions", { Error: FunctionError, ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" } });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A deterministic shuffle: a sheet's rows are not in the list's order. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let s = 7;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export async function benchFunctions(): Promise<void> {
  installCustomFunctions();
  const sandbox = await startSandboxProcess(["--latency", String(LATENCY_MS), "--scale", String(SCALE), "--seed", "1"]);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const sub = enterprise.subsidiaries[0];
    const connection = { baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: enterprise.api_key };
    const all = await listExpenses(new SpendClient(connection), sub).all();
    const ids = shuffled(all.map((e) => e.id)).slice(0, CELLS);
    if (ids.length < CELLS) throw new Error(`the subsidiary holds ${all.length} expenses, fewer than ${CELLS}`);
    const invocation = { isInValuePreview: "false" } as unknown as CustomFunctions.Invocation;

    /** The sheet calculated, then recalculated, with a fresh session (batched or one GET per cell). */
    const sheet = async (batching: boolean): Promise<Sheet> => {
      let requests = 0;
      const session = new Session(memoryStorage(), { onRequest: () => requests++ });
      session.connect(connection);
      useSession(session, { batching });
      const pass = async (): Promise<{ pass: Pass; shown: unknown[] }> => {
        const before = requests;
        const started = performance.now();
        const shown = await Promise.all(ids.map((id) => expense(sub, id, "state", invocation).catch((e: Error) => ({ error: e.message }))));
        return { pass: { ms: performance.now() - started, requests: requests - before }, shown };
      };
      const first = await pass();
      const recalc = await pass();
      if (JSON.stringify(recalc.shown) !== JSON.stringify(first.shown)) throw new Error("the recalculated sheet differs from the first calculation");
      return { first: first.pass, recalc: recalc.pass, shown: JSON.stringify(first.shown) };
    };

    const figures = { batched: [] as Sheet[], perGet: [] as Sheet[] };
    await interleaved(ROUNDS, {
      batched: async () => figures.batched.push(await sheet(true)),
      perGet: async () => figures.perGet.push(await sheet(false)),
    });
    // The warm-up round's figures are the first of each list: left out, as `interleaved` leaves out its time.
    const batched = figures.batched.slice(1);
    const perGet = figures.perGet.slice(1);
    batched.forEach((b, i) => {
      if (b.shown !== perGet[i].shown) throw new Error(`round ${i + 1}: the batched cells differ from one GET per cell`);
    });
    if (batched[0].shown.includes('"error"')) throw new Error("some cells failed");

    const m = (runs: Sheet[], part: "first" | "recalc", what: keyof Pass) => median(runs.map((r) => r[part][what]));
    const firstB = m(batched, "first", "ms");
    const firstG = m(perGet, "first", "ms");
    const recalcB = m(batched, "recalc", "ms");
    const recalcG = m(perGet, "recalc", "ms");
    const reqB = m(batched, "first", "requests");
    const reqG = m(perGet, "first", "requests");
    const runs = (list: Sheet[], part: "first" | "recalc") => list.map((r) => Math.round(r[part].ms)).join(" ");
    const perHundred = (requests: number) => (requests / (CELLS / 100)).toFixed(2);

    console.log(`\n## Record functions: ${CELLS.toLocaleString("en-US")} distinct =SPEND.EXPENSE(sub, id, "state") cells of a subsidiary of ${all.length.toLocaleString("en-US")} expenses, sandbox --latency ${LATENCY_MS} (interleaved, median of ${ROUNDS} rounds after a warm-up)\n`);
    console.log(
      table([
        ["way", "sheet", "time", "requests", "per 100 cells", "batched is", "runs (ms)"],
        ["batched (list pages, GET for the rest)", "calculated", `${Math.round(firstB)} ms`, reqB, perHundred(reqB), `${(firstG / firstB).toFixed(1)}x faster`, runs(batched, "first")],
        ["one GET per cell (baseline)", "calculated", `${Math.round(firstG)} ms`, reqG, perHundred(reqG), "1.0x", runs(perGet, "first")],
        ["batched", "recalculated (cache)", `${Math.round(recalcB)} ms`, m(batched, "recalc", "requests"), perHundred(m(batched, "recalc", "requests")), `${(recalcG / recalcB).toFixed(2)}x`, runs(batched, "recalc")],
        ["one GET per cell (baseline)", "recalculated (cache)", `${Math.round(recalcG)} ms`, m(perGet, "recalc", "requests"), perHundred(m(perGet, "recalc", "requests")), "1.00x", runs(perGet, "recalc")],
      ]),
    );
    console.log(`\nthe cells: the same in both ways, cell for cell, in each of the ${ROUNDS} rounds`);
    const fast = firstG / firstB;
    console.log(`target: batched >= 20x faster than one GET per cell at ${LATENCY_MS} ms -> ${fast >= 20 ? "met" : "NOT met"} (${fast.toFixed(1)}x)`);
    console.log(`target: <= 1 request per 100 cells -> ${reqB <= CELLS / 100 ? "met" : "NOT met"} (${reqB} requests for ${CELLS.toLocaleString("en-US")} cells)`);
  } finally {
    await sandbox.stop();
  }
}
