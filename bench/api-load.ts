/**
 * Issue 3's benchmark: load every expense of a subsidiary holding 21,000 expenses from a sandbox with
 * 30 ms latency, with the client (max page size, 4 pages at once, validated) and with plain sequential
 * loops that follow `next`; and the same pages fetched and JSON-parsed without validation.
 */
import { SpendClient, listExpenses, envelopeOf, Expense } from "../src/api";
import { median, rate, table } from "./measure";
import { startSandboxProcess } from "./sandbox-process";

const RUNS = 3;

/** A plain loop: fetch, JSON.parse, follow `next`; no validation, no concurrency. */
async function sequential(firstUrl: string, key: string): Promise<{ rows: number; requests: number; bodies: unknown[] }> {
  let url: string | null = firstUrl;
  let rows = 0;
  let requests = 0;
  const bodies: unknown[] = [];
  while (url) {
    const response: Response = await fetch(url, { headers: { Authorization: `Api-Key ${key}` } });
    const body = (await response.json()) as { next: string | null; results: unknown[] };
    requests++;
    rows += body.results.length;
    bodies.push(body);
    url = body.next;
  }
  return { rows, requests, bodies };
}

/** The client's own plan (page 1, then the rest four at a time) with JSON.parse only. */
async function concurrentRaw(client: SpendClient, path: string, key: string, pageSize: number): Promise<number> {
  const get = async (page: number) => {
    const response = await fetch(client.url(path, { page, page_size: pageSize }), { headers: { Authorization: `Api-Key ${key}` } });
    return JSON.parse(await response.text()) as { count: number; results: unknown[] };
  };
  const first = await get(1);
  let rows = first.results.length;
  const pages = Math.ceil(first.count / pageSize);
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const body = await get(next++);
      rows += body.results.length;
    }
  };
  await Promise.all(Array.from({ length: client.concurrency }, worker));
  return rows;
}

export async function benchApiLoad(): Promise<void> {
  const sandbox = await startSandboxProcess(["--latency", "30", "--scale", "70", "--seed", "1"]);
  try {
    const [enterprise] = sandbox.manifest.enterprises;
    const sub = enterprise.subsidiaries[0];
    const key = enterprise.api_key;
    const client = new SpendClient({ baseUrl: sandbox.manifest.base_url, enterpriseId: enterprise.id, apiKey: key });
    const path = `subsidiaries/${sub}/expenses/`;

    const engine = await median(RUNS, async () => {
      const before = client.stats.requests;
      const rows = (await listExpenses(client, sub).all()).length;
      return { rows, requests: client.stats.requests - before };
    });
    const plainDefault = await median(RUNS, () => sequential(client.url(path), key));
    const plainMax = await median(RUNS, () => sequential(client.url(path, { page_size: 1000 }), key));
    const raw = await median(RUNS, () => concurrentRaw(client, path, key, 1000));

    // Validation alone: the same 21 pages through the same schema, with no network in the way.
    const pageSchema = envelopeOf(Expense);
    const bodies = plainMax.value.bodies;
    const validation = await median(RUNS, async () => {
      for (const body of bodies) pageSchema.parse(body);
      return bodies.length;
    });

    const rows = engine.value.rows;
    if (plainDefault.value.rows !== rows || plainMax.value.rows !== rows || raw.value !== rows) {
      throw new Error(`row counts differ: client ${rows}, plain ${plainDefault.value.rows}/${plainMax.value.rows}, raw ${raw.value}`);
    }
    console.log(`\n## API client: load ${rows.toLocaleString("en-US")} expenses, sandbox --latency 30 (median of ${RUNS} runs)\n`);
    console.log(
      table([
        ["way", "time", "rate", "requests", "client is"],
        ["client (1000/page, 4 at once, validated)", `${Math.round(engine.ms)} ms`, rate(rows, engine.ms), engine.value.requests, "1.00x"],
        ["plain loop following next (default page size)", `${Math.round(plainDefault.ms)} ms`, rate(rows, plainDefault.ms), plainDefault.value.requests, `${(plainDefault.ms / engine.ms).toFixed(2)}x faster`],
        ["plain loop following next, page_size=1000", `${Math.round(plainMax.ms)} ms`, rate(rows, plainMax.ms), plainMax.value.requests, `${(plainMax.ms / engine.ms).toFixed(2)}x faster`],
        ["client's plan, fetch + JSON.parse only", `${Math.round(raw.ms)} ms`, rate(rows, raw.ms), engine.value.requests, `${(raw.ms / engine.ms).toFixed(2)}x`],
      ]),
    );
    const share = validation.ms / engine.ms;
    console.log(
      `\nvalidation: ${Math.round(validation.ms)} ms of zod for ${bodies.length} pages = ${(share * 100).toFixed(1)}% of the client's load ` +
        `(target < 25%); wall-clock difference against fetch + parse only: ${Math.round(engine.ms - raw.ms)} ms`,
    );
    console.log(`target: client >= 3x the plain loop -> ${plainDefault.ms / engine.ms >= 3 ? "met" : "NOT met"} (${(plainDefault.ms / engine.ms).toFixed(2)}x)`);
  } finally {
    await sandbox.stop();
  }
}
