/**
 * What each kind of error shows a person, in one table: the taskpane's sentence, and a =SPEND.* cell's error
 * (#VALUE! when what was asked is wrong, #N/A when the answer is missing for now) with its message. Keyed by the
 * error's `name`: every error the add-in throws on purpose has a literal one (the SpendSyncError family), and the
 * hosts' own kinds (the functions' ArgumentError and DeadlineError) are named here without this layer importing
 * them. Any other error shows its own message (#N/A in a cell).
 */
export interface Shown {
  /** The taskpane's sentence. */
  taskpane: string;
  /** A =SPEND.* cell's error: its kind (CustomFunctions.ErrorCode's key) and message. */
  cell: { code: "invalidValue" | "notAvailable"; message: string };
}

type Failure = Error & { serverMessage?: string };

/** A service that did not answer: what the taskpane adds to its message. */
const REACH_HINT = " Check the base URL, your network, or use the dev server's /proxy route for a service without CORS.";
/** What to do about an answer for another record: it may be a passing fault, or one to report. */
const WRONG_RECORD_HINT = "Try again, and tell your Spend Sync contact if it happens again.";
const wrongValue = (message: string) => ({ code: "invalidValue" as const, message });
const missing = (message: string) => ({ code: "notAvailable" as const, message });
const unreachable = (error: Failure) => missing(`The service could not be reached: ${error.message}`);

const SHOWN: Record<string, (error: Failure) => Shown> = {
  CancelledError: (e) => ({ taskpane: "Cancelled.", cell: unreachable(e) }),
  // Already says what was typed, why it is not the service, and what a base URL looks like (not-found.ts).
  AuthError: (e) => ({ taskpane: e.message, cell: wrongValue(e.message) }),
  BaseUrlError: (e) => ({ taskpane: e.message, cell: missing(e.message) }),
  NetworkError: (e) => ({ taskpane: `${e.message}${REACH_HINT}`, cell: unreachable(e) }),
  TimeoutError: (e) => ({ taskpane: `${e.message}${REACH_HINT}`, cell: unreachable(e) }),
  // The service itself answered (its JSON error body): the base URL is right, an id is not.
  NotFoundError: (e) => ({
    taskpane: `Not found: check the ids (subsidiary, card, billing period, record). ${e.serverMessage ? `The service said: "${e.serverMessage}"` : ""}`.trim(),
    cell: missing("Not found: no such record, subsidiary, card or billing period for this enterprise."),
  }),
  RejectedError: (e) => ({ taskpane: e.message, cell: wrongValue(e.serverMessage || e.message) }),
  RateLimitError: (e) => ({ taskpane: e.message, cell: missing("The service is limiting requests; try again in a moment (Refresh data).") }),
  ServerError: (e) => ({ taskpane: e.message, cell: unreachable(e) }),
  NotConnectedError: (e) => ({ taskpane: e.message, cell: wrongValue(e.message) }),
  // The service (or something in front of it) answered for another record: nothing was taken from it.
  WrongRecordError: (e) => ({ taskpane: `${e.message} ${WRONG_RECORD_HINT}`, cell: missing(e.message) }),
  // The functions' own: an argument a person typed, and a service too slow for a cell's deadline.
  ArgumentError: (e) => ({ taskpane: e.message, cell: wrongValue(e.message) }),
  DeadlineError: (e) => ({ taskpane: e.message, cell: unreachable(e) }),
};

/** What `error` shows in the taskpane and in a cell. */
export function shown(error: unknown): Shown {
  const failure = error as Failure | null | undefined;
  const own = typeof failure?.name === "string" && Object.hasOwn(SHOWN, failure.name) ? SHOWN[failure.name] : undefined;
  if (own) return own(failure as Failure);
  const message = failure?.message ?? String(error);
  return { taskpane: message, cell: missing(message) };
}
