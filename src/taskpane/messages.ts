/** What the taskpane says when something goes wrong: the library's own messages, with a hint of what to do. */
import { AuthError, CancelledError, NetworkError, NotFoundError, TimeoutError } from "../api";

export function explain(error: unknown): string {
  if (error instanceof CancelledError) return "Cancelled.";
  if (error instanceof AuthError) return error.message;
  if (error instanceof NetworkError || error instanceof TimeoutError) {
    return `${error.message} Check the base URL, your network, or use the dev server's /proxy route for a service without CORS.`;
  }
  if (error instanceof NotFoundError) {
    return `Not found: check the ids (enterprise, subsidiary, card, billing period). ${error.serverMessage ? `The service said: "${error.serverMessage}"` : ""}`.trim();
  }
  return (error as Error)?.message ?? String(error);
}
