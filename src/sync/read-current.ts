/**
 * Reads the current tracked values of the records about to be sent, with as few requests as it can: list
 * calls filtered by state when they cost fewer pages than there are records to check, single GETs when
 * few records are involved. A record a list did not show (another state, or deleted) is read by GET.
 */
import { DataMovedError, NotFoundError, PaginationError, type Page, type SpendClient } from "../api";
import type { TrackedResource } from "../domain";
import { trackedOf, trackedSpecOf, type TrackedRecord, type TrackedValues } from "../sheets";
import { pool } from "./pool";

export interface ReadScope {
  resource: TrackedResource;
  subsidiaryId: string;
}

/** null: the record does not exist in this subsidiary. */
export type Current = Map<string, TrackedValues | null>;

export interface ReadOptions {
  signal?: AbortSignal;
  /** GETs at once (default: the client's concurrency). */
  concurrency?: number;
}

function pagesOf(client: SpendClient, scope: ReadScope, state: string, signal?: AbortSignal): AsyncGenerator<Page<TrackedRecord>> {
  return trackedSpecOf(scope.resource).list(client, scope.subsidiaryId, state, { signal }).pages();
}

export async function getOne(client: SpendClient, scope: ReadScope, id: string, signal?: AbortSignal): Promise<TrackedValues | null> {
  try {
    return trackedOf(await trackedSpecOf(scope.resource).get(client, scope.subsidiaryId, id, { signal }));
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
  const take = (page: Page<TrackedRecord>) => {
    for (const record of page.results) if (wanted.has(record.id)) current.set(record.id, trackedOf(record));
  };
  if (ids.length > states.length) {
    const lists = states.map((state) => pagesOf(client, scope, state, options.signal));
    try {
      const firsts = await Promise.all(lists.map((l) => l.next()));
      let remainingPages = 0;
      firsts.forEach((r) => {
        if (r.done) return;
        take(r.value);
        const size = Math.max(1, r.value.results.length);
        remainingPages += r.value.count === null ? 1 : Math.max(0, Math.ceil(r.value.count / size) - 1);
      });
      if (remainingPages < ids.length - current.size) {
        await Promise.all(lists.map(async (l) => {
          for await (const page of { [Symbol.asyncIterator]: () => l }) take(page);
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
    current.set(id, await getOne(client, scope, id, options.signal));
  });
  return current;
}
