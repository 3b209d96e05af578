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
 * checks (sheets/spill/spill.ts recordPages, api/record-lists.ts), and anything else (not listed, malformed,
 * a failed or abandoned list) is its GET's answer or error. Each call goes through the governor under its
 * GET's key (`share`), so a record answered from a list is cached where its GET's answer would be, identical
 * calls share one answer, and the list and the GETs take places among the same 6 running calls as every other
 * =SPEND call, each with the usual deadline from when it is sent.
 */
import { NotFoundError, SpendSyncError, type RequestGovernor, type SpendClient } from "../api";
import type { RecordRef, RecordScope } from "../sheets/resources";
import { recordPageSize, recordPages, type Spill } from "../sheets/spill/spill";
import { askedRecord } from "./record-answer";
import { batchingRecords, callDeadlineMs, callKey, currentSession, governed, isInValuePreview, previewOf, withDeadline } from "./runtime";

/**
 * How long a batch collects calls after its first one. Microsoft's example waits 100 ms; Excel hands a
 * recalculation's calls to the runtime within milliseconds of each other, and a call that arrives while its
 * scope's list is being read joins that list at once, so a shorter window costs a lone cell less.
 * @internal record-batch.test.ts and record-trust.test.ts advance fake timers by exactly this window.
 */
export const BATCH_WINDOW_MS = 50;

/**
 * The cost rule's weight of a listed record: a hundred records weigh one request. A request is a round trip
 * (100 ms on a slow link, one of six connections, one count against the service's rate limit); a listed
 * expense is about 1 KB to send, read and check, which is what a page of a thousand costs beyond its round trip.
 * @internal record-batch.test.ts counts requests by it.
 */
export const RECORDS_PER_REQUEST = 100;

/**
 * Worth asking for a scope's first page for `calls` records (each would otherwise be one GET): when even a
 * full page (1 request and `pageSize` records) costs no more than those GETs. At worst, the page answers
 * none of them and costs one request more than the GETs alone.
 * @internal record-batch.test.ts checks the cost rule at its boundaries.
 */
export function firstPageWorth(calls: number, pageSize: number): boolean {
  return 1 + pageSize / RECORDS_PER_REQUEST <= calls;
}

/**
 * After the first page (its `count` gives the size): worth reading the rest of the list (`pagesLeft` requests,
 * `recordsLeft` records) when it costs no more than one GET for each of the `calls` records still unanswered.
 * @internal record-batch.test.ts checks the cost rule at its boundaries.
 */
export function restWorth(calls: number, pagesLeft: number, recordsLeft: number): boolean {
  return pagesLeft + recordsLeft / RECORDS_PER_REQUEST <= calls;
}

/**
 * GETs one recalculation may send for ids that no list holds (a list read to its end, or a scope the service
 * says does not exist, without them). Such a GET almost always answers 404: 10,000 cells of ids that are in no
 * list cost a GET each, 10,000 "Not found" (issue 49: 10,002 requests, 73 s). The first 200 still get their
 * GET, so a column of mostly right ids shows each wrong one with the service's own answer; past 200 the sheet is
 * almost surely pointing at another subsidiary or column, and each further GET would repeat the 404 against the
 * service's rate limit. 200 GETs take about 3.4 s at 100 ms over the governor's 6 running calls.
 * One recalculation is a round of the batcher: from a batch's first call until every list and GET it sent
 * has settled; a batch gathered while any of them is still running belongs to the same round.
 * @internal record-trust.test.ts fills a round to this cap.
 */
export const MAX_UNLISTED_GETS = 200;

/** A record call refused without a request: the round already sent MAX_UNLISTED_GETS GETs for ids no list holds. */
class UnlistedCapError extends SpendSyncError {
  override readonly name = "UnlistedCapError";
}

const capMessage = () =>
  `More than ${MAX_UNLISTED_GETS} ids in this recalculation were not found in the service's lists, so this one was not asked for: check the ids, or load the table instead.`;

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
  /**
   * Whether the list is known to hold no record it has not answered: read to its last page, or its scope not
   * found (the service's 404). Its calls still unanswered then are for ids no list holds, except those that
   * joined once pages had gone by (`late`: their records may be on those pages) and those a page lists but a
   * GET must decide (`listed`: malformed or too large there).
   */
  private whole = false;
  private pagesRead = 0;
  private readonly late = new Set<Call>();
  private readonly listed = new Set<string>();

  constructor(private readonly batcher: RecordBatcher, private readonly client: SpendClient, private readonly scope: RecordScope) {}

  /** A call for a record of this scope: answered by a page still to be read, else by its GET when the run ends. */
  add(call: Call): void {
    if (this.pagesRead > 0) this.late.add(call);
    const calls = this.wanted.get(call.ref.id);
    if (calls) calls.push(call);
    else this.wanted.set(call.ref.id, [call]);
  }

  async start(governor: RequestGovernor, ended: () => void): Promise<void> {
    try {
      await governor.schedule(() => withDeadline((signal) => this.read(signal), callDeadlineMs()));
    } catch (error) {
      // A failed page, a list that moved, the deadline: each call the list has not answered gets its GET below,
      // with that GET's own answer or error. The service's 404: it has no such subsidiary, so its list holds none
      // of the ids asked. Only page 1 can give it (a later page's 404 is a DataMovedError, api/pagination.ts), and
      // a 404 from something that is not the service is a BaseUrlError.
      this.whole = error instanceof NotFoundError;
    } finally {
      ended();
      const rest = [...this.wanted.values()].flat();
      this.wanted.clear(); // a page still in hand after the deadline answers nobody twice
      for (const call of rest) this.batcher.fallBack(call, this.whole && !this.late.has(call) && !this.listed.has(call.ref.id));
    }
  }

  private async read(signal: AbortSignal): Promise<void> {
    for await (const page of recordPages(this.client, this.scope, { signal })) {
      for (const [id, calls] of this.wanted) {
        const spill = page.spill(id);
        if (spill === undefined) {
          if (page.holds(id)) this.listed.add(id);
          continue;
        }
        this.wanted.delete(id);
        for (const call of calls) call.resolve(spill);
      }
      this.pagesRead++;
      // Nothing left to answer: the pages still in flight are dropped (the list is left, its requests aborted).
      if (this.wanted.size === 0) return;
      if (page.page === 1) {
        // Without a count the size is unknown: the GETs, whose cost is known, answer the rest.
        if (page.count === null) return;
        const pagesLeft = Math.ceil(page.count / page.pageSize) - 1;
        if (pagesLeft > 0 && !restWorth(this.wanted.size, pagesLeft, page.count - page.size)) return;
      }
    }
    this.whole = true;
  }
}

/** Collects the record calls of a session's governor and answers them by scope (one batcher per governor). */
class RecordBatcher {
  private collecting = new Map<string, Call[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Lists being read, by scope. */
  private readonly reading = new Map<string, ListRun>();
  /** Lists and GETs of the current round not settled yet: at 0, the next batch starts a new round. */
  private unsettled = 0;
  /** GETs the current round may still send for ids no list holds (MAX_UNLISTED_GETS). */
  private unlistedLeft = MAX_UNLISTED_GETS;

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

  /**
   * A call its list did not answer: its GET; or, for an id no list holds (`unlisted`) once the round has sent
   * MAX_UNLISTED_GETS of those, an UnlistedCapError at once, with no request.
   */
  fallBack(call: Call, unlisted: boolean): void {
    if (unlisted && this.unlistedLeft <= 0) return call.reject(new UnlistedCapError(capMessage()));
    if (unlisted) this.unlistedLeft--;
    this.get(call);
  }

  /** The request a call makes unbatched: its GET, with a place among the running calls and its deadline. */
  private get(call: Call): void {
    this.track(this.governor.schedule(() => withDeadline((signal) => askedRecord(call.client, call.ref, { signal }), callDeadlineMs())))
      .then(call.resolve, call.reject);
  }

  /** Counts `work` in the round until it settles; settles as it does. */
  private track<T>(work: Promise<T>): Promise<T> {
    this.unsettled++;
    const settled = () => {
      this.unsettled--;
    };
    work.then(settled, settled);
    return work;
  }

  private flush(): void {
    this.timer = undefined;
    const batches = this.collecting;
    this.collecting = new Map();
    // Nothing of an earlier batch still running: this batch starts a new recalculation, with the whole cap.
    if (this.unsettled === 0) this.unlistedLeft = MAX_UNLISTED_GETS;
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
      void this.track(run.start(this.governor, () => this.reading.delete(scope)));
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
  if (!batchingRecords()) return governed(name, args, invocation, (client, signal) => askedRecord(client, ref, { signal }));
  const s = currentSession();
  const client = s.currentClient();
  const key = callKey(client, name, args);
  if (isInValuePreview(invocation)) return previewOf<Spill>(s, key);
  return s.governor.share(key, () => batcherOf(s.governor).ask(client, ref));
}
