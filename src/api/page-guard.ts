/**
 * What a list has seen, so that a server that misbehaves is refused at the first page that proves it, not
 * after every page it can send (a `next` link to itself once cost 1,360 requests in 10 s). Each page is
 * checked as it arrives:
 * - a URL asked for before: the pages go round in circles (PaginationError, nothing sent);
 * - a non-empty page whose records were all seen already: the service ignores `page` (PaginationError);
 * - some records seen already: the list moved under us (DataMovedError, load again);
 * - more records than a sheet can hold, or more pages than such a list needs: refused (PaginationError).
 */
import { DataMovedError, PaginationError } from "./errors";

/** Data rows of one Excel sheet (1,048,576 rows, one of them the header): a list longer than this cannot be shown. */
export const MAX_LIST_RECORDS = 1_048_575;

export class PageGuard {
  private readonly urls = new Set<string>();
  private readonly ids = new Set<string>();
  private pages = 0;

  constructor(
    private readonly resource: string,
    private readonly maxRecords: number,
    private readonly maxPages: number,
  ) {}

  /** Distinct records seen. */
  get distinct(): number {
    return this.ids.size;
  }

  /** Call before asking for `url`: refuses a URL already asked for, and a list longer than any real one. */
  visit(url: string, page: number): void {
    const key = canonical(url);
    if (this.urls.has(key)) {
      throw new PaginationError(
        `The service's pages of ${this.resource} go round in circles: page ${page - 1} links back to a page already read. Loading stopped; nothing more was asked for.`,
        page,
      );
    }
    if (++this.pages > this.maxPages) {
      throw new PaginationError(
        `The service's pages of ${this.resource} do not end: more than ${this.maxPages.toLocaleString("en-US")} pages. Loading stopped.`,
        page,
      );
    }
    this.urls.add(key);
  }

  /** Call with each page's ids, in order; `expectedTotal` is the list's count, or null when the service gave none. */
  accept(page: number, ids: readonly string[], expectedTotal: number | null): void {
    const repeated = ids.filter((id) => this.ids.has(id));
    if (ids.length > 0 && repeated.length === ids.length) {
      throw new PaginationError(
        `The service sent the same ${this.resource} again on page ${page}: it seems to ignore the page asked for. Loading stopped at the first repeated page.`,
        page,
      );
    }
    if (repeated.length > 0 || new Set(ids).size !== ids.length) {
      const how = repeated.length > 0 ? "repeats records of earlier pages" : "holds the same record twice";
      throw new DataMovedError(
        `The ${this.resource} changed on the server while loading (page ${page} ${how}). Load again.`,
        expectedTotal ?? this.ids.size + ids.length,
        this.ids.size,
      );
    }
    for (const id of ids) this.ids.add(id);
    if (this.ids.size > this.maxRecords) {
      throw new PaginationError(
        `The service sent more than ${this.maxRecords.toLocaleString("en-US")} ${this.resource}, more than a sheet can hold. Load a narrower selection (a state, a date range).`,
        page,
      );
    }
  }
}

/** The same page however its query is ordered. */
function canonical(url: string): string {
  const u = new URL(url);
  u.searchParams.sort();
  u.hash = "";
  return u.toString();
}
