/**
 * Where Microsoft's client sends its requests in the workbench, the tests and the benchmarks: to an in-memory
 * Excel, through the library's documented hook for a custom transport
 * (`OfficeExtension.HttpUtility.setCustomSendRequestFunc`). Each Excel has a URL of its own, given to
 * `Excel.run` as its documented `session` option (Excel.RunOptions.session: "The URL of the remote workbook and
 * the request headers to be sent"), so that several workbooks can stand side by side.
 */
import { officeJs, type OfficeResponse } from "./library";

/** What answers Office.js's requests: the in-memory Excel, in this thread or another. */
export interface ProtocolEndpoint {
  processQuery(body: string, flags: number): Promise<string>;
}

const endpoints = new Map<string, ProtocolEndpoint>();
let installed = false;
let next = 1;

/** Registers an Excel; returns the URL its requests go to (`<url>/ProcessQuery?flags=…`). */
export function connect(endpoint: ProtocolEndpoint): string {
  install();
  const url = `https://in-memory-excel.invalid/${next++}`;
  endpoints.set(url, endpoint);
  return url;
}

function install(): void {
  if (installed) return;
  installed = true;
  officeJs().OfficeExtension.HttpUtility.setCustomSendRequestFunc(async (request): Promise<OfficeResponse> => {
    const at = request.url.indexOf("/ProcessQuery");
    const endpoint = at < 0 ? undefined : endpoints.get(request.url.slice(0, at));
    if (!endpoint) return { statusCode: 404, headers: {}, body: JSON.stringify({ error: { code: "ItemNotFound", message: `No in-memory Excel at ${request.url}.` } }) };
    const flags = Number(new URL(request.url).searchParams.get("flags") ?? 0);
    // What the library's own senders send: the body's JSON text (CoreUtility._getRequestBodyText).
    const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
    return { statusCode: 200, headers: { "content-type": "application/json" }, body: await endpoint.processQuery(body, flags) };
  });
}
