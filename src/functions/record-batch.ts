/**
 * The record functions (SPEND.EXPENSE, ALLOWANCE, CARD) batched, after Microsoft's pattern "Batch custom
 * function calls for a remote service" (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-batching):
 * each call the cache cannot answer is pushed into a batch, and the batch goes BATCH_WINDOW_MS after its
 * first call. The service has no batch endpoint, but it has lists of up to 1,000 records a request: the calls
 * of one scope (a subsidiary's expenses, its allowances, the enterprise's cards) are answered from the scope's
 * list pages when that costs less than one GET each (firstPageWorth, restWorth; docs/functions.md), and every
 * record the list does not answer is asked with its own GET, the request the call makes unbatched.
 *
 * What a cell shows is what one GET per cell gives: a list record answers only when it passes the GET's own
 * checks (sheets/spill.ts recordPages, api/record-lists.ts), and anything else (not listed, malformed,
 * a failed or abandoned list) is its GET's answer or error. Each call goes through the governor under its
 * GET's key (`share`), so a record answered from a list is cached where its GET's answer would be, identical
 * calls share one answer, and the list and the GETs take places among the same 6 running calls as every other
 * =SPEND call, each with the usual deadline from when it is sent.
 */
import type { RequestGovernor, SpendClient } from "../api";
import { recordPageSize, recordPages, spillRecord, type RecordRef, type RecordScope, type Spill } from "../sheets";
import { batchingRecords, callDeadlineMs, callKey, currentSession, governed, isInValuePreview, previewOf, withDeadline } from "./runtime";

/**
 * How long a batch collects calls after its first one. Microsoft's example waits 100 ms; Excel hands a
 * recalculation's calls to the runtime within milliseconds of each other, and a call that arrives while its
 * scope's list is being read joins that list at once, so a shorter window costs a lone cell less.
 */
export const BATCH_WINDOW_MS = 50;

/**
 * The cost rule's weight of a listed record: a hundred records weigh one request. A request is a round trip
 * (100 ms on a slow link, one of six connections, one count against the service's rate limit); a listed
 * expense is about 1 KB to send, read and check, which is what a page of a thousand costs beyond its round trip.
 */
export const RECORDS_PER_REQUEST = 100;

/**
 * Worth asking for a scope's first page for `calls` records (each would otherwise be one GET): when even a
 * full page (1 request and `pageSize` records) costs no more than those GETs. At worst, the page answers
 * none of them and costs one request more than the GETs alone.
 */
export function firstPageWorth(calls: number, pageSize: number): boolean {
  return 1 + pageSize / RECORDS_PER_REQUEST <= calls;
}

/**
 * After the first page (its `count` gives the size): worth reading the rest of the list (`pagesLeft` requests,
 * `recordsLeft` records) when it costs no more than one GET for each of the `calls` records still unanswered.
 */
export function restWorth(calls: number, pagesLeft: number, recordsLeft: number): boolean {
  return pagesLeft + recordsLeft / RECORDS_PER_REQUEST <= calls;
}

/** A record call waiting for its answer. */
interface Call {
  ref: RecordRef;
  client: SpendClient;
  resolve(spill: Spill): void;
  reject(error: unknown): void;
}

const clientIds = new WeakMap<SpendClient, number>();
let clientCount = 0;

/** One list per connection (client) and scope: calls made with another client never share a list. */
function scopeKeyOf(client: SpendClient, ref: RecordRef): string {
  let id = clientIds.get(client);
  if (id === undefined) clientIds.set(client, (id = ++clientCount));
  return JSON.stringify([id, ref.kind, ref.subsidiaryId ?? null]);
}

/** The calls of one scope answered from its list pages, as they arrive; what the list leaves is asked by GET. */
class ListRun {
  /** Calls not answered yet, by record id. */
  private readonly wanted = new Map<string, Call[]>();

  constructor(private readonly batcher: RecordBatcher, private readonly client: SpendClient, private readonly scope: RecordScope) {}

  /** A call for a record of this scope: answered by a page still to be read, else by its GET when the run ends. */
  add(call: Call): void {
    const calls = this.wanted.get(call.ref.id);
    if (calls) calls.push(call);
    else this.wanted.set(call.ref.id, [call]);
  }

  async start(governor: RequestGovernor, ended: () => void): Promise<void> {
    try {
      await governor.schedule(() => withDeadline((signal) => this.read(signal), callDeadlineMs()));
    } catch {
      // A failed page, a list that moved, the deadline: each call the list has not answered gets its GET below,
      // with that GET's own answer or error.
    } finally {
      ended();
      const rest = [...this.wanted.values()].flat();
      this.wanted.clear(); // a page still in hand after the deadline answers nobody twice
      for (const call of rest) this.batcher.get(call);
    }
  }

  private async read(signal: AbortSignal): Promise<void> {
    for await (const page of recordPages(this.client, this.scope, { signal })) {
      for (const [id, calls] of this.wanted) {
        const spill = page.spill(id);
        if (spill === undefined) continue;
        this.wanted.delete(id);
        for (const call of calls) call.resolve(spill);
      }
      // Nothing left to answer: the pages still in flight are dropped (the list is left, its requests aborted).
      if (this.wanted.size === 0) return;
      if (page.page === 1) {
        // Without a count the size is unknown: the GETs, whose cost is known, answer the rest.
        if (page.count === null) return;
        const pagesLeft = Math.ceil(page.count / page.pageSize) - 1;
        if (pagesLeft > 0 && !restWorth(this.wanted.size, pagesLeft, page.count - page.size)) return;
      }
    }
  }
}

/** Collects the record calls of a session's governor and answers them by scope (one batcher per governor). */
class RecordBatcher {
  private collecting = new Map<string, Call[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Lists being read, by scope. */
  private readonly reading = new Map<string, ListRun>();

  constructor(private readonly governor: RequestGovernor) {}

  /** The spill of one record: from its scope's list, or from its own GET. */
  ask(client: SpendClient, ref: RecordRef): Promise<Spill> {
    return new Promise<Spill>((resolve, reject) => {
      const call: Call = { ref, client, resolve, reject };
      const scope = scopeKeyOf(client, ref);
      const run = this.reading.get(scope);
      if (run) return run.add(call);
      const batch = this.collecting.get(scope);
      if (batch) batch.push(call);
      else this.collecting.set(scope, [call]);
      this.timer ??= setTimeout(() => this.flush(), BATCH_WINDOW_MS);
    });
  }

  /** The request a call makes unbatched: its GET, with a place among the running calls and its deadline. */
  get(call: Call): void {
    this.governor.schedule(() => withDeadline((signal) => spillRecord(call.client, call.ref, { signal }), callDeadlineMs()))
      .then(call.resolve, call.reject);
  }

  private flush(): void {
    this.timer = undefined;
    const batches = this.collecting;
    this.collecting = new Map();
    for (const [scope, calls] of batches) {
      const reading = this.reading.get(scope);
      if (reading) {
        for (const call of calls) reading.add(call);
        continue;
      }
      const { ref, client } = calls[0];
      if (!firstPageWorth(calls.length, recordPageSize(ref.kind))) {
        for (const call of calls) this.get(call);
        continue;
      }
      const run = new ListRun(this, client, { kind: ref.kind, subsidiaryId: ref.subsidiaryId });
      for (const call of calls) run.add(call);
      this.reading.set(scope, run);
      void run.start(this.governor, () => this.reading.delete(scope));
    }
  }
}

const batchers = new WeakMap<RequestGovernor, RecordBatcher>();

function batcherOf(governor: RequestGovernor): RecordBatcher {
  let batcher = batchers.get(governor);
  if (!batcher) batchers.set(governor, (batcher = new RecordBatcher(governor)));
  return batcher;
}

/**
 * One record for a record function: `governed` with the same key, its calls batched. Formula value preview
 * answers from the cache only, as for every function.
 */
export async function governedRecord(name: string, ref: RecordRef, invocation: CustomFunctions.Invocation | undefined): Promise<Spill> {
  const args = [ref.id, ref.subsidiaryId];
  if (!batchingRecords()) return governed(name, args, invocation, (client, signal) => spillRecord(client, ref, { signal }));
  const s = currentSession();
  const client = s.currentClient();
  const key = callKey(client, name, args);
  if (isInValuePreview(invocation)) return previewOf<Spill>(s, key);
  return s.governor.share(key, () => batcherOf(s.governor).ask(client, ref));
}
