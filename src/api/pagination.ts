/**
 * Lists as async iterators (octokit `paginate.iterator`) with a collector on top. After the first page the
 * total is known, so the other pages are fetched concurrently (bounded) and still yielded in order; without
 * a count, `next` is followed. At the end the iterator checks it saw `count` distinct records.
 */
import { z } from "zod";
import type { Query, SpendClient } from "./client";
import { CancelledError, DataMovedError, NotFoundError } from "./errors";

export interface ListOptions {
  /** Records per request; default and maximum: the resource's maximum. */
  pageSize?: number;
  /** Requests at once; default: the client's (4). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after every page with records loaded so far and the total (null while unknown). */
  onProgress?: (loaded: number, total: number | null) => void;
}

export interface Page<T> {
  page: number;
  count: number | null;
  results: T[];
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

export class Paginated<T extends { id: string }> implements AsyncIterable<T> {
  private readonly envelope;

  constructor(
    private readonly client: SpendClient,
    private readonly spec: ListSpec<T>,
    private readonly options: ListOptions = {},
  ) {
    const size = options.pageSize ?? spec.maxPageSize;
    if (!Number.isInteger(size) || size < 1 || size > spec.maxPageSize) {
      throw new RangeError(`pageSize for ${spec.resource} must be a whole number from 1 to ${spec.maxPageSize}; got ${size}.`);
    }
    this.envelope = envelopeOf(spec.item);
  }

  private get pageSize(): number {
    return this.options.pageSize ?? this.spec.maxPageSize;
  }

  private pageUrl(page: number): string {
    return this.client.url(this.spec.path, { ...this.spec.query, page, page_size: this.pageSize });
  }

  /** Every page, in order. Breaking out of the loop cancels the pages still in flight. */
  async *pages(): AsyncGenerator<Page<T>> {
    const { resource } = this.spec;
    const own = new AbortController();
    const outer = this.options.signal;
    const onAbort = () => own.abort();
    outer?.addEventListener("abort", onAbort, { once: true });
    const signal = own.signal;
    const seen = new Set<string>();
    let loaded = 0;
    const take = (page: number, env: { count?: number | null; results: T[] }): Page<T> => {
      for (const item of env.results) seen.add(item.id);
      loaded += env.results.length;
      this.options.onProgress?.(loaded, env.count ?? null);
      return { page, count: env.count ?? null, results: env.results };
    };
    try {
      if (outer?.aborted) throw new CancelledError("Cancelled.");
      const first = await this.client.get(this.envelope, `${resource} (page 1)`, this.pageUrl(1), { signal });
      yield take(1, first);
      const count = first.count;
      if (typeof count === "number") {
        const pages = Math.ceil(count / this.pageSize);
        const inFlight = new Map<number, Promise<z.infer<typeof this.envelope>>>();
        let nextToStart = 2;
        const fill = () => {
          const limit = this.options.concurrency ?? this.client.concurrency;
          while (inFlight.size < limit && nextToStart <= pages) {
            const page = nextToStart++;
            const request = this.fetchPage(page, count, signal);
            request.catch(() => undefined); // observed when its turn comes
            inFlight.set(page, request);
          }
        };
        for (let page = 2; page <= pages; page++) {
          fill();
          const env = await inFlight.get(page)!;
          inFlight.delete(page);
          if (env.count !== count) throw this.moved(count, env.count ?? seen.size, "the total changed between pages");
          yield take(page, env);
        }
        if (seen.size !== count || loaded !== count) {
          throw this.moved(count, seen.size, "some records were seen twice or not at all");
        }
      } else {
        // No count: follow `next`, checked against the configured origin before the key is sent.
        let page = 1;
        let next = first.next ?? null;
        while (next) {
          page++;
          const env = await this.client.get(this.envelope, `${resource} (page ${page})`, next, { signal });
          yield take(page, env);
          next = env.next ?? null;
        }
      }
    } catch (error) {
      if (outer?.aborted && !(error instanceof CancelledError)) throw new CancelledError("Cancelled.");
      throw error;
    } finally {
      own.abort(); // stops pages still in flight when the consumer left early or a page failed
      outer?.removeEventListener("abort", onAbort);
    }
  }

  private async fetchPage(page: number, count: number, signal: AbortSignal) {
    try {
      return await this.client.get(this.envelope, `${this.spec.resource} (page ${page})`, this.pageUrl(page), { signal });
    } catch (error) {
      // The page existed when we counted: the list shrank under us.
      if (error instanceof NotFoundError) throw this.moved(count, (page - 1) * this.pageSize, `page ${page} no longer exists`);
      throw error;
    }
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

  /** Collects every record. */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages()) items.push(...page.results);
    return items;
  }
}
