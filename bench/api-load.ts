/**
 * Issue 16's benchmark of the client (after issue 3's): every expense of a subsidiary holding 21,000, from a
 * sandbox answering after 100 ms. The client (maximum page size, page 1 then 6 at once, every page validated)
 * against a plain sequential loop that follows `next` at the same maximum page size (the fair baseline), and
 * against the same plan fetched and JSON-parsed only (the limit: what validation and the guards cost on top).
 * The three run interleaved, round after round, and each keeps its median; the loop at the default page size
 * runs once, for reference. Then zod's share of the client's CPU.
 */
import { SpendClient, listExpenses, envelopeOf, Expense, EXPENSE_MAX_PAGE_SIZE } from "../src/api";
import { interleaved, rate, table, withCpu } from "./measure";
import { startSandboxProcess } from "./sandbox-process";

const ROUNDS = 7;
const LATENCY_MS = 100;

/** A plain loop: fetch, JSON.parse, follow `next`; no validation, no concurrency. */
async function sequential(firstUrl: string, key: string): Promise<{ rows: number; requests: number }> {
  let url: string | null = firstUrl;
  let rows = 0;
  let requests = 0;
  while (url) {
    const response: Response = await fetch(url, { headers: { Authorization: `Api-Key ${key}` } });
    const body = JSON.parse(await response.text()) as { next: string | null; results: unknown[] };
    requests++;
    rows += body.results.length;
    url = body.next;
  }
  return { rows, requests };
}

/**
 * The client's own plan with JSON.parse only: the limit. Page 1, then at most `concurrency` pages on the
 * network; each page's place goes to the next page as soon as its text is in hand, before it is parsed.
 */
async function concurrentRaw(client: SpendClient, path: string, key: string, pageSize: number, keep?: unknown[]): Promise<number> {
  const text = async (page: number) => {
    const response = await fetch(client.url(path, { page, page_size: pageSize }), { headers: { Authorization: `Api-Key ${key}` } });
    return response.text();
  };
  const first = JSON.parse(await text(1)) as { count: number; results: unknown[] };
  keep?.push(first);
  let rows = first.results.length;
  const pages = Math.ceil(first.count / pageSize);
  let next = 2;
  const slot = async (): Promise<void> => {
    if (next > pages) return;
    const body = await text(next++);
    const following = slot(); // the next page is asked for before this one is parsed
    await new Promise((resolve) => setTimeout(resolve, 0));
    const page = JSON.parse(body) as { results: unknown[] };
    keep?.push(page);
    rows += page.results.length;
    await following;
  };
  await Promise.all(Array.from({ length: client.concurrency }, slot));
  return rows;
}

export async function benchApiLoad(): Promise<void> {
  const sandbox = await startSandboxProcess(["--latency", String(LATENCY_MS), "--scale", "70", "--seed", "1"]);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const sub = enterprise.subsidiaries[0];
    const key = enterprise.api_key;
    const client = new SpendClient({ baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: key });
    const path = `subsidiaries/${sub}/expenses/`;
    const max = EXPENSE_MAX_PAGE_SIZE;

    const cpu: number[] = [];
    const runs = await interleaved(ROUNDS, {
      client: async () => {
        const before = client.stats.requests;
        const { value: rows, cpuMs } = await withCpu(async () => {
          let n = 0;
          for await (const page of listExpenses(client, sub).pages()) n += page.results.length;
          return n;
        });
        cpu.push(cpuMs);
        return { rows, requests: client.stats.requests - before };
      },
      raw: () => concurrentRaw(client, path, key, max),
      loopMax: () => sequential(client.url(path, { page_size: max }), key),
    });
    const loopDefault = await (async () => {
      const started = performance.now();
      const value = await sequential(client.url(path), key);
      return { ms: performance.now() - started, value };
    })();

    // zod alone: the same pages through the same schema, with no network in the way, against the client's CPU.
    const bodies: unknown[] = [];
    await concurrentRaw(client, path, key, max, bodies);
    const pageSchema = envelopeOf(Expense);
    const zodRuns: number[] = [];
    for (let i = 0; i < 5; i++) {
      // CPU time, not wall-clock time: on a shared machine the process waits for a core part of the time.
      const { cpuMs } = await withCpu(async () => {
        for (const body of bodies) pageSchema.parse(body);
      });
      zodRuns.push(cpuMs);
    }
    const zodMs = zodRuns.sort((a, b) => a - b)[2];
    const clientCpu = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)];

    const { client: engine, raw, loopMax } = runs;
    const rows = engine.value.rows;
    if (loopMax.value.rows !== rows || loopDefault.value.rows !== rows || raw.value !== rows) {
      throw new Error(`row counts differ: client ${rows}, loops ${loopMax.value.rows}/${loopDefault.value.rows}, raw ${raw.value}`);
    }
    console.log(`\n## API client: ${rows.toLocaleString("en-US")} expenses, sandbox --latency ${LATENCY_MS} (interleaved, median of ${ROUNDS} rounds after a warm-up)\n`);
    console.log(
      table([
        ["way", "time", "rate", "requests", "client is", "runs (ms)"],
        [`client (${max}/page, page 1 then ${client.concurrency} at once, validated)`, `${Math.round(engine.ms)} ms`, rate(rows, engine.ms), engine.value.requests, "1.00x", engine.all.join(" ")],
        [`plain loop following next, page_size=${max} (baseline)`, `${Math.round(loopMax.ms)} ms`, rate(rows, loopMax.ms), loopMax.value.requests, `${(loopMax.ms / engine.ms).toFixed(2)}x faster`, loopMax.all.join(" ")],
        ["client's plan, fetch + JSON.parse only (the limit)", `${Math.round(raw.ms)} ms`, rate(rows, raw.ms), engine.value.requests, `${(engine.ms / raw.ms).toFixed(2)}x the limit`, raw.all.join(" ")],
        ["plain loop following next, default page size (reference, 1 run)", `${Math.round(loopDefault.ms)} ms`, rate(rows, loopDefault.ms), loopDefault.value.requests, `${(loopDefault.ms / engine.ms).toFixed(2)}x faster`, "-"],
      ]),
    );
    const vsLoop = loopMax.ms / engine.ms;
    const vsRaw = engine.ms / raw.ms;
    console.log(
      `\nzod: ${Math.round(zodMs)} ms of CPU to validate the ${bodies.length} pages = ${((zodMs / clientCpu) * 100).toFixed(1)}% of the client's CPU ` +
        `(${Math.round(clientCpu)} ms of this process in a load), ${((zodMs / engine.ms) * 100).toFixed(1)}% of its wall-clock time`,
    );
    console.log(
      `ceiling: with the sandbox's one process answering ${client.concurrency} pages at once, fetch + JSON.parse alone is ${(loopMax.ms / raw.ms).toFixed(2)}x the loop ` +
        `(${Math.round(loopMax.ms / rows * max - LATENCY_MS)} ms a page beyond the latency, sequentially): the client reaches ${((raw.ms / engine.ms) * 100).toFixed(0)}% of it`,
    );
    console.log(`target: client >= 3x the sequential loop at page_size=${max}, ${LATENCY_MS} ms -> ${vsLoop >= 3 ? "met" : "NOT met"} (${vsLoop.toFixed(2)}x)`);
    console.log(`target: client <= 1.1x the fetch + JSON.parse limit -> ${vsRaw <= 1.1 ? "met" : "NOT met"} (${vsRaw.toFixed(2)}x)`);
  } finally {
    await sandbox.stop();
  }
}
