/** Every answer the gateway makes itself is JSON `{"status": <int>, "error": "<message>"}`, like the service's (DESIGN.md). */

/**
 * An answer the gateway makes itself, as data: the fetch handler turns it into a Response, the Node fast path
 * writes it to the socket, so both send the same status, headers and body.
 */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** The gateway's JSON error, as data. */
export function errorAnswer(status: number, message: string, headers: Record<string, string> = {}): PlainAnswer {
  return {
    status,
    headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff", ...headers },
    body: JSON.stringify({ status, error: message }),
  };
}

/** A plain answer as a web Response. */
export function toResponse(answer: PlainAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export function jsonError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return toResponse(errorAnswer(status, message, headers));
}
