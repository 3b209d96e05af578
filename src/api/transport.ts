/**
 * The raw road to the service: one HTTP exchange, nothing more. The real one is `fetch`; tests use a
 * scripted fake that records requests. Retries, timeouts, auth and parsing live in the client.
 */

export interface RawRequest {
  method: "GET" | "PATCH";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

export type Transport = (request: RawRequest) => Promise<RawResponse>;

/**
 * Global fetch: the Office webview and Node 20 both have it. Redirects are never followed with the key:
 * "manual" hands the 3xx (in a browser, an opaque response with status 0) to the client, which turns it into
 * a RedirectError that says so, instead of an anonymous network failure retried four times.
 */
export const fetchTransport: Transport = async (request) => {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
};
