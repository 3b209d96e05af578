/**
 * Reads the current tracked values of the records about to be sent, with as few requests as it can: list
 * calls filtered by state when they cost fewer pages than there are records to check, single GETs when
 * few records are involved. A record a list did not show (another state, or deleted) is read by GET.
 *
 * Every answer is checked against what was asked (answer-check.ts): a GET answered with another record is a
 * WrongRecordError, kept as that record's reading so that nothing is decided from it; a list filtered by state
 * that shows a wanted record in another state answered something other than what was asked, so that record is
 * not taken from it, and its GET says what it holds.
 */
import { DataMovedError, NotFoundError, PaginationError, WrongRecordError, type Page, type SpendClient } from "../api";
import type { TrackedResource } from "../domain";
import { canonical, trackedOf, trackedSpecOf, type TrackedRecord, type TrackedValues } from "../sheets";
import { readAnswerOf } from "./answer-check";
import { pool } from "./pool";

export interface ReadScope {
  resource: TrackedResource;
  subsidiaryId: string;
}

/** null: the record does not exist in this subsidiary; a WrongRecordError: its GET answered for another record. */
export type Current = Map<string, TrackedValues | null | WrongRecordError>;

export interface ReadOptions {
  signal?: AbortSignal;
  /** GETs at once (default: the client's concurrency). */
  concurrency?: number;
}

function pagesOf(client: SpendClient, scope: ReadScope, state: string, signal?: AbortSignal): AsyncGenerator<Page<TrackedRecord>> {
  return trackedSpecOf(scope.resource).list(client, scope.subsidiaryId, state, { signal }).pages();
}

/** The record's tracked values, null when it does not exist; a WrongRecordError when the answer is about another record. */
export async function getOne(client: SpendClient, scope: ReadScope, id: string, signal?: AbortSignal): Promise<TrackedValues | null> {
  try {
    return readAnswerOf(id, await trackedSpecOf(scope.resource).get(client, scope.subsidiaryId, id, { signal }));
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * The server's values of `ids`. `states` are where they are expected (loaded states and targets): a list
 * per state is read when, after its first page, the remaining pages cost fewer requests than GETs would.
 */
export async function readCurrent(client: SpendClient, scope: ReadScope, ids: string[], states: string[], options: ReadOptions = {}): Promise<Current> {
  const current: Current = new Map();
  const wanted = new Set(ids);
  const take = (page: Page<TrackedRecord>, state: string) => {
    for (const record of page.results) {
      if (!wanted.has(record.id)) continue;
      const values = trackedOf(record);
      if (values.state === canonical("state", state)) current.set(record.id, values);
    }
  };
  if (ids.length > states.length) {
    const lists = states.map((state) => pagesOf(client, scope, state, options.signal));
    try {
      const firsts = await Promise.all(lists.map((l) => l.next()));
      let remainingPages = 0;
      firsts.forEach((r, i) => {
        if (r.done) return;
        take(r.value, states[i]);
        const size = Math.max(1, r.value.results.length);
        remainingPages += r.value.count === null ? 1 : Math.max(0, Math.ceil(r.value.count / size) - 1);
      });
      if (remainingPages < ids.length - current.size) {
        await Promise.all(lists.map(async (l, i) => {
          for await (const page of { [Symbol.asyncIterator]: () => l }) take(page, states[i]);
        }));
      }
    } catch (error) {
      // Records moving between states while the lists are paged (another client at work: exactly when a
      // confirmation matters) stop a list; what it read stays true, the rest is read one by one below.
      if (!(error instanceof DataMovedError || error instanceof PaginationError)) throw error;
    } finally {
      await Promise.all(lists.map((l) => l.return(undefined)));
    }
  }
  const missing = ids.filter((id) => !current.has(id));
  await pool(missing, options.concurrency ?? client.concurrency, async (id) => {
    try {
      current.set(id, await getOne(client, scope, id, options.signal));
    } catch (error) {
      // About this record the service said nothing true: that is its reading, the others' stand.
      if (!(error instanceof WrongRecordError)) throw error;
      current.set(id, error);
    }
  });
  return current;
}
