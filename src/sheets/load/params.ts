/**
 * A query's table and sheet names, from its load parameters (resource, scope, filters, expand; stored in the
 * workbook, never the key, so that Refresh reloads the same thing and a colleague can refresh with their own
 * key). The parameters and what each resource makes of them live in the registry (resources/).
 */
import { Query, type LoadParams, type Source } from "../resources";

export { LoadParams, Query, type ParsedParams, type ResourceKind } from "../resources";

/** A short stable tag of a text (FNV-1a, base 36), for sheet names that cannot hold all of it. */
export function nameTag(text: string, length = 6): string {
  let hash = 2166136261;
  for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash.toString(36).padStart(7, "0").slice(0, length);
}

const tagOf = (words: string[]) => nameTag(words.join(" "));

/**
 * One named table per query (resource, scope, filters, expand): the plain query of a scope keeps its
 * short name, a filtered one adds its words, e.g. SpendExpenses_1a2b3c4d_approved_from20260101.
 */
export function tableNameOf(p: LoadParams | Query): string {
  const query = Query.parse(p);
  return [query.scopeName[0], ...query.words].join("_");
}

/** Sheet names stay under Excel's 31 characters: the query's words when they fit, else a short tag of them. */
export function sheetNameOf(p: LoadParams | Query): string {
  const query = Query.parse(p);
  const base = query.scopeName[1];
  const words = query.words;
  if (words.length === 0) return base;
  const readable = `${base} ${words.join(" ")}`;
  return readable.length <= 31 ? readable : `${base.slice(0, 24)} ${tagOf(words)}`;
}

/** What a load of these parameters fetches, and the columns it shows. */
export function sourceOf(input: LoadParams | Query): Source {
  return Query.parse(input).source;
}
