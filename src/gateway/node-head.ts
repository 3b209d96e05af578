/**
 * A Node request's head as admission.ts reads it, the same as the fetch handler's Request gives it behind
 * @hono/node-server: the URL from the Host header (or an absolute target) and the path as received, each header
 * as Headers gives it (several lines joined with ", ", where Node's own `headers` keeps only the first of some).
 */
import type { IncomingMessage } from "node:http";
import type { RequestHead } from "./request-head";

/** The request's head, or null when its Host header or target makes no URL (400, node-server.ts). */
export function nodeHead(req: IncomingMessage): RequestHead | null {
  const url = requestUrl(req);
  if (url === null) return null;
  const raw = req.rawHeaders;
  return {
    method: req.method ?? "GET",
    url,
    header(name) {
      let value: string | null = null;
      for (let i = 0; i < raw.length; i += 2) {
        if (raw[i].length !== name.length || raw[i].toLowerCase() !== name) continue;
        value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
      }
      return value;
    },
  };
}

/** As @hono/node-server builds it: an absolute target as it is, else http://Host and the target; null when invalid. */
function requestUrl(req: IncomingMessage): URL | null {
  const target = req.url ?? "";
  try {
    if (/^https?:\/\//.test(target)) return new URL(target);
    const host = req.headers.host;
    if (!host || (target !== "" && !target.startsWith("/"))) return null;
    const url = new URL(`http://${host}${target}`);
    // A Host with a path, user info or an encoded name in it parses to another host than it names.
    const named = (host.includes(":") ? host.replace(/:\d+$/, "") : host).toLowerCase();
    if (url.hostname.length !== host.length && url.hostname !== named) return null;
    return url;
  } catch {
    return null;
  }
}
