/**
 * Where the key may go. The base URL is https, or http on this machine only (a local sandbox or the dev
 * proxy: nothing crosses a network in the clear), and carries no user name or password (they would be stored
 * with the connection and quoted by every message that names the URL). A link from the service (`next`) is
 * followed only on the base URL's origin: same scheme, host and port.
 */
import { CrossOriginError, PaginationError } from "./errors";
import { redactSecrets } from "./redact";

/** localhost, 127.0.0.0/8 and [::1], as the URL parser normalises them (`127.1` becomes `127.0.0.1`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The parsed base URL, or a TypeError whose message quotes no credentials and no key. */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new TypeError(redactSecrets(`The base URL "${withoutUserInfo(baseUrl)}" is not a URL; write it like https://api.example.com.`));
  }
  const shown = `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  if (url.username || url.password) {
    throw new TypeError(
      `The base URL must not contain a user name or password (${shown} was given with "name:password@"): the service is reached with the API key only. Remove them and try again.`,
    );
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new TypeError(redactSecrets(`The base URL must start with https://; http:// is only for a local sandbox or the dev proxy (localhost, 127.0.0.1 or [::1]), not ${url.host}.`));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(redactSecrets(`The base URL must start with https:// (or http:// for a local sandbox); got "${shown}".`));
  }
  return url;
}

/** Refuses, before anything is sent, a link that is not on `origin` or that carries credentials. */
export function checkLinkOrigin(link: string, origin: string): void {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new CrossOriginError(`Refused to follow a link that is not a URL: ${JSON.stringify(redactSecrets(link).slice(0, 80))}.`, "");
  }
  if (url.origin !== origin) {
    throw new CrossOriginError(`Refused to follow a link to ${url.origin}: the API key is only sent to ${origin}.`, url.origin);
  }
  if (url.username || url.password) {
    throw new CrossOriginError(`Refused to follow a link with a user name or password in it: the API key is only sent to ${origin}.`, url.origin);
  }
}

/**
 * The URL of a `next` link, resolved against the page that gave it as a browser resolves a link (RFC 3986):
 * `?page=2`, `/public/v1/…` and `//host/…` are addresses on that page's server, or another's. Then the link
 * must be on `origin` (checkLinkOrigin) and on the list's own path (`listUrl`'s; only the query may differ):
 * a `next` that leaves the list (`/admin/…`) is not this list's next page, and the key does not go there.
 */
export function resolveLink(link: string, pageUrl: string, listUrl: string, origin: string, what: string, page: number): string {
  const quoted = JSON.stringify(redactSecrets(link).slice(0, 80));
  let url: URL;
  try {
    url = new URL(link, pageUrl);
  } catch {
    throw new PaginationError(`Refused to follow the service's link to ${what}: ${quoted} is not a URL. Loading stopped.`, page);
  }
  checkLinkOrigin(url.toString(), origin);
  const path = new URL(listUrl).pathname;
  if (url.pathname !== path) {
    throw new PaginationError(
      `Refused to follow the service's link to ${what}: ${quoted} leads to ${redactSecrets(url.pathname).slice(0, 120)}, not to this list (${path}). Loading stopped.`,
      page,
    );
  }
  return url.toString();
}

/** Text of a URL-ish string without anything between `//` and `@`, for messages about a URL that did not parse. */
function withoutUserInfo(text: string): string {
  // Up to the last @: a password may itself hold "/" or "@".
  return text.replace(/\/\/.*@/, "//");
}
