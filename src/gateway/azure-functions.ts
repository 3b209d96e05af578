/**
 * Azure Functions (Node.js programming model v4) adapter: its HttpRequest and return value are close to
 * Request and Response but not the same types, so this converts both ways. Typed structurally, so the
 * gateway needs no @azure/functions dependency; the function app's entry (docs/deploy.md) passes the
 * gateway's handler to `app.http`.
 */

/** What the adapter reads of @azure/functions' HttpRequest. */
export interface AzureHttpRequestLike {
  url: string;
  method: string;
  headers: Iterable<[string, string]>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What @azure/functions accepts as an HTTP answer (HttpResponseInit). */
export interface AzureHttpResponseInit {
  status: number;
  headers: Record<string, string>;
  body?: ReadableStream<Uint8Array> | string;
}

/**
 * `app.http("gateway", { route: "{*path}", handler: azureHandler(gateway) })`. The request body is read
 * here because the v4 HttpRequest offers no stream without `enableHttpStream`; the gateway still refuses a
 * body over its cap (Azure itself caps requests at 100 MB). The answer's body is passed on as a stream.
 */
export function azureHandler(gateway: { fetch(request: Request): Response | Promise<Response> }): (request: AzureHttpRequestLike) => Promise<AzureHttpResponseInit> {
  return async (request) => {
    const headers = new Headers([...request.headers]);
    const hasBody = !["GET", "HEAD"].includes(request.method.toUpperCase());
    const body = hasBody ? await request.arrayBuffer() : undefined;
    const response = await gateway.fetch(new Request(request.url, { method: request.method, headers, body }));
    return { status: response.status, headers: Object.fromEntries(response.headers), body: response.body ?? undefined };
  };
}
