/**
 * Where the key may go. The base URL is https, or http on this machine only (a local sandbox or the dev
 * proxy: nothing crosses a network in the clear), and carries no user name or password (they would be stored
 * with the connection and quoted by every message that names the URL). A link from the service (`next`) is
 * followed only on the base URL's origin: same scheme, host and port.
 */
import { CrossOriginError, InvalidBaseUrlError, PaginationError } from "./errors";
import { redactSecrets } from "./redact";

/** localhost, 127.0.0.0/8 and [::1], as the URL parser normalises them (`127.1` becomes `127.0.0.1`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * What a base URL looks like, in every message that says one is wrong. On a page served from this machine (npm
 * start's dev server and workbench) its own origin's /proxy forwards to the sandbox: named with the page's real
 * port, never a port it might not be on; anywhere else (the add-in hosted for Excel) there is no such proxy.
 */
export function baseUrlExamples(pageOrigin: string | undefined = globalThis.location?.origin): string {
  const start = "A base URL is where the service's /public/v1/ paths start, like https://api.example.com";
  let local = false;
  try {
    local = pageOrigin !== undefined && isLoopbackHost(new URL(pageOrigin).hostname);
  } catch {
    // an opaque origin ("null"): not this machine's dev server
  }
  return local ? `${start}, or ${pageOrigin}/proxy here (the dev server forwards it to the sandbox; npm start prints it).` : `${start}.`;
}

/** A scheme and its "//", as every base URL begins. */
const WITH_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The base URL that text without a scheme most likely meant: http:// before a loopback host (a sandbox or the
 * dev proxy), https:// before any other; `http:/x` and `http:x` get their "//". Null when no host can be read
 * in it (a bare number is a port or nothing, not a host).
 */
function meant(typed: string): string | null {
  const half = /^(https?):\/?(?!\/)(.+)$/i.exec(typed);
  const rest = half ? half[2] : typed.replace(/^\/+/, "");
  let url: URL;
  try {
    url = new URL(`http://${rest}`);
  } catch {
    return null;
  }
  // A host as people type one: a name with a dot (an IPv4 address is one), localhost or [IPv6]. Not "3000" (a
  // port), not "c" (from "C:\\x", a file path).
  const host = rest.split(/[/?#]/)[0].replace(/:\d*$/, "");
  if (!/^(localhost|\[[0-9a-f:.]+\]|[^\s.]+(\.[^\s.]+)+)$/i.test(host)) return null;
  const scheme = half ? half[1].toLowerCase() : isLoopbackHost(url.hostname) ? "http" : "https";
  return `${scheme}://${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}

/** The parsed base URL, or an InvalidBaseUrlError (a TypeError) that quotes what was typed (without credentials or the key) and what to write. */
export function checkBaseUrl(baseUrl: string): URL {
  const typed = baseUrl.trim();
  const shownTyped = redactSecrets(withoutUserInfo(typed));
  if (typed === "") throw new InvalidBaseUrlError(`The base URL is empty. ${baseUrlExamples()}`);
  if (!WITH_SCHEME.test(typed)) {
    // "localhost:3000/proxy" would parse as a URL of scheme "localhost:" (shown as "localhost://3000/proxy"),
    // "api.example.com" not at all: either way what is missing is the scheme, and that is what is said.
    const fix = meant(withoutUserInfo(typed));
    if (fix === null) throw new InvalidBaseUrlError(`The base URL "${shownTyped}" is not a URL. ${baseUrlExamples()}`);
    const scheme = fix.slice(0, fix.indexOf("://") + 3);
    throw new InvalidBaseUrlError(redactSecrets(/^https?:/i.test(typed)
      ? `The base URL "${shownTyped}" needs two slashes after its scheme: ${fix}.`
      : `The base URL "${shownTyped}" has no scheme: start it with ${scheme}, as in ${fix}.`));
  }
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new InvalidBaseUrlError(`The base URL "${shownTyped}" is not a URL. ${baseUrlExamples()}`);
  }
  const shown = `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  if (url.username || url.password) {
    throw new InvalidBaseUrlError(
      `The base URL must not contain a user name or password (${shown} was given with "name:password@"): the service is reached with the API key only. Remove them and try again.`,
    );
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new InvalidBaseUrlError(redactSecrets(`The base URL must start with https://; http:// is only for a local sandbox or the dev proxy (localhost, 127.0.0.1 or [::1]), not ${url.host}.`));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidBaseUrlError(redactSecrets(`The base URL must start with https:// (or http:// for a local sandbox); got "${shownTyped}".`));
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

/** Text of a URL-ish string without a user name or password (before an @), for messages about a URL that did not parse. */
function withoutUserInfo(text: string): string {
  // Up to the last @: a password may itself hold "/" or "@", or a line break pasted with it. Without "//" (no
  // scheme typed), from the start.
  return text.includes("//") ? text.replace(/\/\/[\s\S]*@/, "//") : text.replace(/^[\s\S]*@/, "");
}
