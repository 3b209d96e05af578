/**
 * Lists as async iterators (octokit `paginate.iterator`) with a collector on top. After the first page the
 * total is known, so the other pages are fetched concurrently (bounded) and still yielded in order; without
 * a count, `next` is followed. Every page is checked as it arrives (PageGuard: no URL twice, no page of
 * records already seen, no page the count contradicts), so a misbehaving server costs a few pages, not all:
 * page 1 and at most 2 x `concurrency` after the page it is caught at.
 */
import { z } from "zod";
import { resolveLink } from "./base-url";
import type { Query, SpendClient } from "./client";
import { CancelledError, DataMovedError, NotFoundError, PaginationError } from "./errors";
import type { MalformedRecord } from "./malformed";
import { decodePage, type DecodedPage } from "./page-decode";
import { MAX_LIST_RECORDS, PageGuard } from "./page-guard";

export interface ListOptions {
  /** Records per request; default and maximum: the resource's maximum. */
  pageSize?: number;
  /** Requests at once; default: the client's (6). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after every page with records loaded so far and the total (null while unknown). */
  onProgress?: (loaded: number, total: number | null) => void;
  /** Most records a list may have (default MAX_LIST_RECORDS, what one sheet holds); more is refused. */
  maxRecords?: number;
  /**
   * Keep a record that does not match the API (its id aside) as a MalformedRecord in `Page.malformed`
   * instead of refusing its page with a SchemaError (the default). A load shows it as a read-only row.
   */
  keepMalformed?: boolean;
}

export interface Page<T> {
  page: number;
  count: number | null;
  /** The page's valid records, in order. */
  results: T[];
  /** With `keepMalformed`: the records that do not match the API, each with its place on the page. */
  malformed: readonly MalformedRecord[];
}

export interface ListSpec<T> {
  /** Used in messages: "expenses", "movements", … */
  resource: string;
  /** Under the enterprise, e.g. `subsidiaries/{id}/expenses/`. */
  path: string;
  query: Query;
  item: z.ZodType<T>;
  maxPageSize: number;
}

/** The paginated envelope of spec section 1; `status`/`error` are tolerated where the spec has them. */
export function envelopeOf<T>(item: z.ZodType<T>) {
  return z.object({
    count: z.number().int().nonnegative().nullish(),
    next: z.string().nullish(),
    previous: z.string().nullish(),
    results: z.array(item),
  });
}

/** Records on a page, valid or not. */
const sizeOf = (page: DecodedPage<unknown>) => page.results.length + page.malformed.length;

/** The ids of a page's records, malformed ones included (they take a row, so they count as seen). */
function idsOf<T extends { id: string }>(page: DecodedPage<T>): string[] {
  const ids = page.results.map((record) => record.id);
  for (const record of page.malformed) ids.push(record.id);
  return ids;
}

/** One listing's state, shared by the two ways its pages after the first are fetched. */
interface Listing<T> {
  /** Aborted when the caller's signal is, when the consumer leaves early, or when a page fails. */
  signal: AbortSignal;
  guard: PageGuard;
  maxRecords: number;
  /**
   * Checks a page against what came before, counts it, reports the progress, and makes it the page yielded.
   * A method, not a function property: its parameters stay bivariant, so a Paginated of a resource's records
   * is still a Paginated of records with an id (sheets/resources, spill.ts).
   */
  take(page: number, env: DecodedPage<T>, total: number | null): Page<T>;
}

/** Resolves in a later task: a request just started is written out before the CPU work that follows. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class Paginated<T extends { id: string }> implements AsyncIterable<T> {
  constructor(
    private readonly client: SpendClient,
    private readonly spec: ListSpec<T>,
    private readonly options: ListOptions = {},
  ) {
    const size = options.pageSize ?? spec.maxPageSize;
    if (!Number.isInteger(size) || size < 1 || size > spec.maxPageSize) {
      // A programming error's RangeError (the tests pin the class): the client never asks past the maximum.
      // eslint-disable-next-line no-restricted-syntax
      throw new RangeError(`pageSize for ${spec.resource} must be a whole number from 1 to ${spec.maxPageSize}; got ${size}.`);
    }
  }

  private get pageSize(): number {
    return this.options.pageSize ?? this.spec.maxPageSize;
  }

  private pageUrl(page: number): string {
    return this.client.url(this.spec.path, { ...this.spec.query, page, page_size: this.pageSize });
  }

  /** Every page, in order. Breaking out of the loop cancels the pages still in flight. */
  async *pages(): AsyncGenerator<Page<T>> {
    const own = new AbortController();
    const outer = this.options.signal;
    const onAbort = () => own.abort();
    outer?.addEventListener("abort", onAbort, { once: true });
    const maxRecords = this.options.maxRecords ?? MAX_LIST_RECORDS;
    // Every page but the last is non-empty (checked as the pages come), so no honest list needs more pages than records.
    const guard = new PageGuard(this.spec.resource, maxRecords, Math.ceil(maxRecords / this.pageSize) + 1);
    let loaded = 0;
    const listing: Listing<T> = {
      signal: own.signal,
      guard,
      maxRecords,
      take: (page, env, total) => {
        guard.accept(page, idsOf(env), total);
        loaded += env.results.length + env.malformed.length;
        this.options.onProgress?.(loaded, env.count);
        return { page, count: env.count, results: env.results, malformed: env.malformed };
      },
    };
    try {
      if (outer?.aborted) throw new CancelledError("Cancelled.");
      const firstUrl = this.pageUrl(1);
      guard.visit(firstUrl, 1);
      const first = this.decode(1, await this.client.getText(firstUrl, { signal: own.signal }));
      const count = first.count;
      if (typeof count === "number") yield* this.countedPages(first, count, listing);
      else yield* this.linkedPages(first, firstUrl, listing);
    } catch (error) {
      if (outer?.aborted && !(error instanceof CancelledError)) throw new CancelledError("Cancelled.");
      throw error;
    } finally {
      own.abort(); // stops pages still in flight when the consumer left early or a page failed
      outer?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * The pages of a list whose first page gave its count: how many pages follow is known, so they are fetched
   * several at once and yielded in order, each checked against the count.
   */
  private async *countedPages(first: DecodedPage<T>, count: number, listing: Listing<T>): AsyncGenerator<Page<T>> {
    const { resource } = this.spec;
    const { signal, guard, maxRecords, take } = listing;
    if (count > maxRecords) {
      throw new PaginationError(
        `The service says there are ${count.toLocaleString("en-US")} ${resource}, more than a sheet can hold (${maxRecords.toLocaleString("en-US")}). Load a narrower selection (a state, a date range).`,
        1,
      );
    }
    const pages = Math.max(1, Math.ceil(count / this.pageSize));
    this.checkPageSize(1, sizeOf(first), count, pages);
    yield take(1, first, count);
    // At most `limit` pages on the network. A page gives its place to the next as soon as its text is in
    // hand, so that request travels while this page is parsed and checked. Pages asked for and not yet
    // yielded: at most 2 x `limit` (what a slow consumer holds in memory, what a bad server costs).
    const limit = this.options.concurrency ?? this.client.concurrency;
    const pending = new Map<number, Promise<DecodedPage<T>>>();
    let onNetwork = 0;
    let nextToStart = 2;
    let yielded = 1;
    const fill = () => {
      while (!signal.aborted && onNetwork < limit && nextToStart <= pages && nextToStart - 1 - yielded < 2 * limit) {
        const page = nextToStart++;
        onNetwork++;
        const request = this.fetchPage(page, count, signal, (ok) => {
          onNetwork--;
          if (ok) fill(); // after a failure, nothing more is asked for: the failure ends the list in its turn
        });
        request.catch(() => undefined); // observed when its turn comes
        pending.set(page, request);
      }
    };
    for (let page = 2; page <= pages; page++) {
      fill();
      const env = await pending.get(page)!;
      pending.delete(page);
      if (env.count !== count) throw this.moved(count, env.count ?? guard.distinct, "the total changed between pages");
      this.checkPageSize(page, sizeOf(env), count, pages);
      const out = take(page, env, count);
      yielded = page;
      fill();
      yield out;
    }
  }

  /**
   * The pages of a list whose first page gave no count: `next` is followed, resolved against the page that
   * gave it (a relative link is a path on the same server) and checked against the configured origin and this
   * list's path before the key is sent.
   */
  private async *linkedPages(first: DecodedPage<T>, firstUrl: string, listing: Listing<T>): AsyncGenerator<Page<T>> {
    const { resource } = this.spec;
    const { signal, guard, take } = listing;
    yield take(1, first, null);
    let page = 1;
    let url = firstUrl;
    let next = first.next;
    let previous = first;
    while (next) {
      if (sizeOf(previous) === 0) {
        throw new PaginationError(`The service sent an empty page ${page} of ${resource} with a link to another page. Loading stopped.`, page);
      }
      page++;
      url = resolveLink(next, url, firstUrl, this.client.origin, `page ${page} of ${resource}`, page);
      guard.visit(url, page);
      const env = this.decode(page, await this.client.getText(url, { signal }));
      yield take(page, env, null);
      previous = env;
      next = env.next;
    }
  }

  /**
   * With a count, every page but the last is full and the last holds the rest. A page that says otherwise,
   * with the same count on every page, contradicts its own count: refused at that page.
   */
  private checkPageSize(page: number, size: number, count: number, pages: number): void {
    const expected = page < pages ? this.pageSize : count - (pages - 1) * this.pageSize;
    if (size === expected) return;
    const said = `the service says there are ${count} ${this.spec.resource}, so at ${this.pageSize} a page, page ${page} should hold ${expected}; it holds ${size}`;
    // A page larger than page_size never gets here: decodePage refused it ("holds more than N records").
    throw new PaginationError(`The pages of ${this.spec.resource} cannot be trusted: ${said}. Loading stopped.`, page);
  }

  private async fetchPage(page: number, count: number, signal: AbortSignal, offNetwork: (ok: boolean) => void): Promise<DecodedPage<T>> {
    let text: string;
    try {
      text = await this.client.getText(this.pageUrl(page), { signal });
    } catch (error) {
      offNetwork(false);
      // The page existed when we counted: the list shrank under us.
      if (error instanceof NotFoundError) throw this.moved(count, (page - 1) * this.pageSize, `page ${page} no longer exists`);
      throw error;
    }
    offNetwork(true);
    await nextTask(); // the request just started is written out before this page's CPU work
    return this.decode(page, text);
  }

  /** A page's text as its records, bounded by the page size asked for (page-decode.ts). */
  private decode(page: number, text: string): DecodedPage<T> {
    return decodePage(text, {
      resource: this.spec.resource, page, pageSize: this.pageSize, item: this.spec.item, keepMalformed: Boolean(this.options.keepMalformed),
    });
  }

  private moved(expected: number, received: number, why: string): DataMovedError {
    return new DataMovedError(
      `The ${this.spec.resource} changed on the server while loading (${why}; expected ${expected} records). Load again.`,
      expected,
      received,
    );
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.results;
  }

  /** Collects every record (a list with `keepMalformed` leaves the malformed ones out: read them from `pages()`). */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages()) items.push(...page.results);
    return items;
  }
}
