/**
 * Run as a child process by page-memory.test.ts, with `--expose-gc` and a small heap: hostile answers of
 * 10^4, 10^5 and 10^6 empty records (about 3 bytes each, issue 25's attack) go through the client as a list
 * page and as a record's answer. For each, one JSON line: the error and the heap (after a full collection)
 * before and after. Before issue 25 a page of 10^4 took 195 MB, so this heap would not even survive it.
 */
import { SpendClient, getExpense, listExpenses } from "../../../src/api";
import type { Transport } from "../../../src/api/transport";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

let out: (line: string) => void = () => undefined;

async function measure(name: string, records: number, text: string, call: (client: SpendClient) => Promise<unknown>): Promise<void> {
  const transport: Transport = async () => ({ status: 200, headers: new Headers(), text });
  const client = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_memory_test", transport, retry: { retries: 0 } });
  const before = heap();
  let error: Error | null = null;
  try {
    await call(client);
  } catch (e) {
    error = e as Error;
  }
  const after = heap();
  out(JSON.stringify({ name, records, bytes: text.length, before, after, error: error && { name: error.name, message: error.message } }));
}

/** `head` + `n` empty records + `tail` as one flat string (as a transport hands it over), nothing else kept. */
function answerOf(head: string, records: number, tail: string): string {
  return Buffer.from(`${head}${new Array(records).fill("{}").join(",")}${tail}`).toString("utf8");
}

async function main(): Promise<void> {
  // Every path at every size before measuring: what is built on first use (compiled code, zod's caches, the
  // optimiser's feedback for each path) is not the page's. Measured against 2000, the first case retained
  // 184 KB once on a loaded CI machine; against the sizes themselves, 1 to 35 KB.
  await run([2000, 10_000, 100_000], () => undefined);
  await run([10_000, 100_000, 1_000_000], (line) => process.stdout.write(`${line}\n`));
}

async function run(sizes: number[], write: (line: string) => void): Promise<void> {
  out = write;
  for (const records of sizes) {
    await measure("page with a count", records, answerOf(`{"count":${records},"next":null,"previous":null,"results":[`, records, "]}"),
      (client) => listExpenses(client, "sub-1").all());
    await measure("page without a count", records, answerOf('{"count":null,"next":null,"previous":null,"results":[', records, "]}"),
      (client) => listExpenses(client, "sub-1").all());
    await measure("record", records, answerOf('{"id":"e1","approved_by":[', records, "]}"), (client) => getExpense(client, "sub-1", "e1"));
  }
}

void main();
