/** Every answer the gateway makes itself is JSON `{"status": <int>, "error": "<message>"}`, like the service's (DESIGN.md). */

export function jsonError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ status, error: message }), {
    status,
    headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff", ...headers },
  });
}
