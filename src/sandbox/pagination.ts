/** page / page_size (spec 4, 8) and the paginated envelope with absolute next/previous links. */
import { ApiError, badRequest } from "./http-errors";

export interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

/** Defaults and maxima of spec section 8; cards and movements default to 20 (DESIGN.md). */
export const LIMITS = {
  cards: { defaultSize: 20, maxSize: 100 },
  movements: { defaultSize: 20, maxSize: 100 },
  allowances: { defaultSize: 100, maxSize: 1000 },
  expenses: { defaultSize: 100, maxSize: 1000 },
} satisfies Record<string, PageLimits>;

export interface Paging {
  page: number;
  pageSize: number;
}

function wholeNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1) {
    throw badRequest(`${name} must be a whole number from 1 up; got '${raw.slice(0, 40)}'.`);
  }
  return value;
}

export function parsePaging(query: URLSearchParams, limits: PageLimits): Paging {
  const page = wholeNumber("page", query.get("page") ?? undefined, 1);
  const pageSize = wholeNumber("page_size", query.get("page_size") ?? undefined, limits.defaultSize);
  if (pageSize > limits.maxSize) {
    throw badRequest(`page_size must be at most ${limits.maxSize}; got ${pageSize}.`);
  }
  return { page, pageSize };
}

export interface Envelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * Cuts one page out of `items` and links its neighbours. The links repeat the request's own URL with
 * every other parameter kept. A page past the last one is a 404, as the service's framework answers.
 */
export function paginate<T, R>(requestUrl: string, items: readonly T[], paging: Paging, view: (item: T) => R): Envelope<R> {
  const lastPage = Math.max(1, Math.ceil(items.length / paging.pageSize));
  if (paging.page > lastPage) {
    throw new ApiError(404, `Invalid page: page ${paging.page} is past the last page, ${lastPage}.`);
  }
  const start = (paging.page - 1) * paging.pageSize;
  const link = (page: number) => {
    const url = new URL(requestUrl);
    url.searchParams.set("page", String(page));
    return url.toString();
  };
  return {
    count: items.length,
    next: paging.page < lastPage ? link(paging.page + 1) : null,
    previous: paging.page > 1 ? link(paging.page - 1) : null,
    results: items.slice(start, start + paging.pageSize).map(view),
  };
}
