/**
 * A request to the service in words, for the taskpane's sentences: "reading page 2 of the approved expenses of
 * subsidiary 1a2b3c4d" rather than "GET /proxy/public/v1/enterprises/…/expenses/?state=approved&page=2&page_size=1000".
 * Ids are cut to the 8 characters the table names show. The errors' messages are written with these words; the URL
 * itself stays in the error (RequestInfo), for the details line.
 */
import type { RequestInfo } from "./errors";

export interface RequestWords {
  /** After "while": "reading page 2 of the approved expenses of subsidiary 1a2b3c4d", "updating expense 9f8e7d6c of …". */
  doing: string;
  /** As the object of a verb: "the request for page 2 of …", "the update of expense 9f8e7d6c of …". */
  request: string;
}

const short = (id: string) => {
  try {
    return decodeURIComponent(id).slice(0, 8);
  } catch {
    return id.slice(0, 8);
  }
};

/** A list's records in words ("the approved expenses of subsidiary 1a2b3c4d"), or one record's ("expense 9f8e7d6c of …"). */
function thingOf(rest: readonly string[], query: URLSearchParams): { list: string } | { one: string } | null {
  const [scope, scopeId, kind, id, extra] = rest;
  if (scope === "subsidiaries" && scopeId && (kind === "expenses" || kind === "allowances") && extra === undefined) {
    const of = `of subsidiary ${short(scopeId)}`;
    const state = query.get("state");
    return id ? { one: `${kind === "expenses" ? "expense" : "allowance"} ${short(id)} ${of}` } : { list: `the ${state ? `${state} ` : ""}${kind} ${of}` };
  }
  if (scope !== "corporate-cards") return null;
  if (!scopeId) return { list: "the corporate cards" };
  if (!kind) return { one: `corporate card ${short(scopeId)}` };
  const [periodId, movements, movementId] = [id, extra, rest[5]];
  if ((kind === "billing-periods" || kind === "billing_periods") && periodId && movements === "movements" && rest.length <= 6) {
    const of = `of billing period ${short(periodId)} of card ${short(scopeId)}`;
    return movementId ? { one: `movement ${short(movementId)} ${of}` } : { list: `the movements ${of}` };
  }
  return null;
}

/**
 * `info` in words, or null for a path this client does not ask for (then its URL stays in the sentence).
 * @internal its null for a path the client never asks is read by failures-name-the-request-in-words.test.ts (wordsOf hides it).
 */
export function requestInWords(info: RequestInfo): RequestWords | null {
  let url: URL;
  try {
    url = new URL(info.url, "http://spend.invalid");
  } catch {
    return null;
  }
  const parts = url.pathname.split("/").filter(Boolean);
  const at = parts.lastIndexOf("enterprises");
  if (at < 0 || parts.length < at + 3) return null;
  const thing = thingOf(parts.slice(at + 2), url.searchParams);
  if (!thing) return null;
  const what = "list" in thing ? `page ${url.searchParams.get("page") ?? "1"} of ${thing.list}` : thing.one;
  if (info.method === "PATCH") return { doing: `updating ${what}`, request: `the update of ${what}` };
  return { doing: `reading ${what}`, request: `the request for ${what}` };
}

/**
 * `info` in words for an error's message: the request in words, or for a path this client does not ask for,
 * words that name no address. The URL itself stays in the error's `request` (the taskpane's details line), never
 * in a message that reaches a log, a status cell, the journal or a =SPEND cell (issue 43).
 */
export function wordsOf(info: RequestInfo): RequestWords {
  return requestInWords(info) ?? { doing: `sending a ${info.method} request to the service`, request: `a ${info.method} request` };
}
