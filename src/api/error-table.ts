import type { RequestInfo } from "./errors";
import { wordsOf } from "./request-words";

/**
 * What each kind of error shows a person, in one table: the taskpane's sentence, and a =SPEND.* cell's error
 * (#VALUE! when what was asked is wrong, #N/A when the answer is missing for now) with its message. Keyed by the
 * error's `name`: every error the add-in throws on purpose has a literal one (the SpendSyncError family), and the
 * hosts' own kinds (the functions' ArgumentError and DeadlineError) are named here without this layer importing
 * them. Any other error shows its own message (#N/A in a cell).
 */
export interface Shown {
  /** The taskpane's sentence: the request in words (request-words.ts), never its URL. */
  taskpane: string;
  /** The request's method and URL, where the sentence names the request: the taskpane's details line. */
  details?: string;
  /** A =SPEND.* cell's error: its kind (CustomFunctions.ErrorCode's key) and message. */
  cell: { code: "invalidValue" | "notAvailable"; message: string };
}

type Failure = Error & { serverMessage?: string; request?: RequestInfo };

/** A service that did not answer: what the taskpane adds to its message. */
const REACH_HINT = " Check the base URL, your network, or use the dev server's /proxy route for a service without CORS.";
/** What to do about an answer for another record: it may be a passing fault, or one to report. */
const WRONG_RECORD_HINT = "Try again, and tell your Spend Sync contact if it happens again.";
const wrongValue = (message: string) => ({ code: "invalidValue" as const, message });
const missing = (message: string) => ({ code: "notAvailable" as const, message });
const unreachable = (error: Failure) => missing(`The service could not be reached: ${error.message}`);

/** Each kind's sentences, from the error and its message with the request said in words (`text`). */
const SHOWN: Record<string, (error: Failure, text: string) => Shown> = {
  CancelledError: (e) => ({ taskpane: "Cancelled.", cell: unreachable(e) }),
  AuthError: (e) => ({ taskpane: e.message, cell: wrongValue(e.message) }),
  // Already says what was typed, why it is not the service, and what a base URL looks like (not-found.ts).
  BaseUrlError: (e) => ({ taskpane: e.message, cell: missing(e.message) }),
  NetworkError: (e, text) => ({ taskpane: `${text}${REACH_HINT}`, cell: unreachable(e) }),
  TimeoutError: (e, text) => ({ taskpane: `${text}${REACH_HINT}`, cell: unreachable(e) }),
  // The service itself answered (its JSON error body): the base URL is right, an id is not.
  NotFoundError: (e) => ({
    taskpane: `Not found: check the ids (subsidiary, card, billing period, record). ${e.serverMessage ? `The service said: "${e.serverMessage}"` : ""}`.trim(),
    cell: missing("Not found: no such record, subsidiary, card or billing period for this enterprise."),
  }),
  RejectedError: (e, text) => ({ taskpane: text, cell: wrongValue(e.serverMessage || e.message) }),
  RateLimitError: (e, text) => ({ taskpane: text, cell: missing("The service is limiting requests; try again in a moment (Refresh data).") }),
  ServerError: (e, text) => ({ taskpane: text, cell: unreachable(e) }),
  RedirectError: (e, text) => ({ taskpane: text, cell: missing(e.message) }),
  NotConnectedError: (e) => ({ taskpane: e.message, cell: wrongValue(e.message) }),
  // The service (or something in front of it) answered for another record: nothing was taken from it.
  WrongRecordError: (e) => ({ taskpane: `${e.message} ${WRONG_RECORD_HINT}`, cell: missing(e.message) }),
  // The functions' own: an argument a person typed, and a service too slow for a cell's deadline.
  ArgumentError: (e) => ({ taskpane: e.message, cell: wrongValue(e.message) }),
  DeadlineError: (e) => ({ taskpane: e.message, cell: unreachable(e) }),
};

/**
 * The error's message, already in words (request-words.ts: the messages never carry the URL), and its request's
 * method and URL for the details line.
 */
function inWords(e: Failure): { text: string; details?: string } {
  const request = e.request;
  if (!request || typeof request.url !== "string") return { text: e.message };
  // Only a message that names its request gets the details line (a rate limit's names none).
  const words = wordsOf(request);
  const names = e.message.includes(words.doing) || e.message.includes(words.request);
  return names ? { text: e.message, details: `${request.method} ${request.url}` } : { text: e.message };
}

/** What `error` shows in the taskpane and in a cell. */
export function shown(error: unknown): Shown {
  const failure = error as Failure | null | undefined;
  const own = typeof failure?.name === "string" && Object.hasOwn(SHOWN, failure.name) ? SHOWN[failure.name] : undefined;
  if (own) {
    const { text, details } = inWords(failure as Failure);
    const said = own(failure as Failure, text);
    return details && said.taskpane.includes(text) ? { ...said, details } : said;
  }
  const message = failure?.message ?? String(error);
  return { taskpane: message, cell: missing(message) };
}
