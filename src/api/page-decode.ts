/**
 * One list page from its text, bounded by what was asked: a page that holds more records than the page size
 * asked for, or more values than that many records need, is refused before it is parsed (json-scan.ts), and
 * its records are checked one by one, so a bad record costs its own issues (a few) and never the page's.
 * A page that is itself malformed (not JSON, no `results` array, a `count` that is not a number) is a
 * SchemaError; a record that is, is either a SchemaError too (the default) or kept as a MalformedRecord.
 */
import { z } from "zod";
import { PaginationError } from "./errors";
import { scanJson } from "./json-scan";
import { MalformedRecord } from "./malformed";
import { MAX_ISSUES_PER_RECORD, MAX_VALUES_PER_RECORD, checkSchema, issuesOf, parseJson, recordsNeed, schemaError } from "./schema-check";

/** The paginated envelope of spec section 1, its records not yet checked; `status`/`error` are tolerated. */
const Envelope = z.object({
  count: z.number().int().nonnegative().nullish(),
  next: z.string().nullish(),
  previous: z.string().nullish(),
  results: z.array(z.unknown()),
});

export interface PageRequest<T> {
  /** "expenses": in messages about the list. */
  resource: string;
  page: number;
  /** Records asked for; a page holding more is refused. */
  pageSize: number;
  item: z.ZodType<T>;
  /** Keep records that do not match the API as MalformedRecord instead of refusing the page. */
  keepMalformed: boolean;
}

export interface DecodedPage<T> {
  count: number | null;
  next: string | null;
  previous: string | null;
  results: T[];
  /** Records that do not match the API, in page order (empty unless kept). */
  malformed: MalformedRecord[];
}

export function decodePage<T>(text: string, request: PageRequest<T>): DecodedPage<T> {
  const { resource, page, pageSize } = request;
  const label = `${resource} (page ${page})`;
  const budget = pageSize * MAX_VALUES_PER_RECORD + 64;
  const shape = scanJson(text, "results", pageSize, budget);
  if (shape.elements > pageSize) throw tooMany(resource, page, pageSize);
  if (shape.values > budget) {
    throw new PaginationError(
      `Page ${page} of ${resource} holds more than ${budget.toLocaleString("en-US")} values, more than ${recordsNeed(pageSize)}: it was refused without being read. Loading stopped.`,
      page,
    );
  }
  const body = parseJson(text, label);
  // The scan is not a parser: the parsed array is counted again before anything looks at its records.
  const raw = (body as { results?: unknown } | null)?.results;
  if (Array.isArray(raw) && raw.length > pageSize) throw tooMany(resource, page, pageSize);
  const envelope = checkSchema(Envelope, body, label);
  const results: T[] = [];
  const malformed: MalformedRecord[] = [];
  const records = envelope.results;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    const checked = request.item.safeParse(record);
    if (checked.success) {
      results.push(checked.data);
      continue;
    }
    const id = (record as { id?: unknown } | null)?.id;
    if (!request.keepMalformed || typeof record !== "object" || record === null || Array.isArray(record) || typeof id !== "string" || id === "") {
      const [first] = issuesOf(checked.error, record, 1);
      throw schemaError(label, { ...first, path: first.path === "(the whole body)" ? `results[${i}]` : `results[${i}]${first.path.startsWith("[") ? "" : "."}${first.path}` });
    }
    malformed.push(new MalformedRecord(id, i, record as Record<string, unknown>, issuesOf(checked.error, record, MAX_ISSUES_PER_RECORD)));
  }
  return { count: envelope.count ?? null, next: envelope.next ?? null, previous: envelope.previous ?? null, results, malformed };
}

function tooMany(resource: string, page: number, pageSize: number): PaginationError {
  return new PaginationError(
    `Page ${page} of ${resource} holds more than ${pageSize.toLocaleString("en-US")} records, the page size asked for: the service ignores page_size. It was refused without being read. Loading stopped.`,
    page,
  );
}

