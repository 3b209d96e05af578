/**
 * What the gateway reads of a request before deciding on it, the same whichever server received it: the fetch
 * handler makes it from a Request, the Node fast path from Node's IncomingMessage (node-head.ts).
 */
export interface RequestHead {
  readonly method: string;
  /** The request's URL as the platform gives it: its origin from the Host header (or the absolute target). */
  readonly url: URL;
  /** A header's value as Headers gives it (several lines of it joined with ", "), or null; `name` in lower case. */
  header(name: string): string | null;
}

/** The head of a web Request. */
export function headOfRequest(request: Request, url: URL = new URL(request.url)): RequestHead {
  return { method: request.method, url, header: (name) => request.headers.get(name) };
}
