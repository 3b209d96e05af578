/**
 * A request whose path or query holds a key (the caller's own, in any encoding, or anything shaped like one)
 * is refused, never forwarded: the service's logs and every proxy's would keep the URL, and a key belongs in
 * the Authorization header only. docs/deploy.md, "What the gateway never forwards".
 */
import { leaksKey } from "./access-log";
import { errorAnswer, type PlainAnswer } from "./http-errors";

/**
 * The refusal, naming no part of what was sent.
 * @internal key-never-in-access-log.test.ts asserts the refusal's exact words.
 */
export const KEY_IN_URL_MESSAGE = "The request's path or query holds what looks like an API key; it is not forwarded. Send the key only in the Authorization header.";

/** A 400 for a URL that holds a key, or undefined when it holds none. */
export function refuseKeyInUrl(url: URL, redact: (text: string) => string): PlainAnswer | undefined {
  const parts = [...url.pathname.split("/"), ...url.search.slice(1).split("&")];
  return parts.some((part) => part !== "" && leaksKey(part, redact)) ? errorAnswer(400, KEY_IN_URL_MESSAGE) : undefined;
}
