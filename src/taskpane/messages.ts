/** What the taskpane says when something goes wrong: the library's own messages, with a hint of what to do. */
import { AuthError, BaseUrlError, CancelledError, NetworkError, NotFoundError, TimeoutError } from "../api";

export function explain(error: unknown): string {
  if (error instanceof CancelledError) return "Cancelled.";
  // Already says what was typed, why it is not the service, and what a base URL looks like (api/not-found.ts).
  if (error instanceof AuthError || error instanceof BaseUrlError) return error.message;
  if (error instanceof NetworkError || error instanceof TimeoutError) {
    return `${error.message} Check the base URL, your network, or use the dev server's /proxy route for a service without CORS.`;
  }
  if (error instanceof NotFoundError) {
    // The service itself answered (its JSON error body): the base URL is right, an id is not.
    return `Not found: check the ids (subsidiary, card, billing period, record). ${error.serverMessage ? `The service said: "${error.serverMessage}"` : ""}`.trim();
  }
  return (error as Error)?.message ?? String(error);
}
