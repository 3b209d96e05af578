/** Which links the rewriter (links.ts) rewrites, and to what. */
import { FORWARDED_PREFIX } from "./limits";

/** The target's origin and path prefix, parsed once per target (it is the gateway's configuration: one). */
interface Base {
  target: string;
  origin: string;
  /** The target's path, no trailing slash (`""` for a bare origin). */
  prefix: string;
  /** What a link under the target's /public/v1/ starts with, as the URL parser writes it. */
  forwarded: string;
}

let lastBase: Base | null = null;

function baseOf(target: string): Base | null {
  if (lastBase?.target === target) return lastBase;
  let base: URL;
  try {
    base = new URL(target);
  } catch {
    return null;
  }
  // (The target is checked: no trailing slash, but for the bare origin's `/`.)
  const prefix = base.pathname.replace(/\/$/, "");
  lastBase = { target, origin: base.origin, prefix, forwarded: `${base.origin}${prefix}${FORWARDED_PREFIX}/` };
  return lastBase;
}

/**
 * The rest of a link that the URL parser would give back as it is: no dot segment, escape, fragment or character
 * it rewrites (and no `?` at the end, which it drops). A service's links (ids, page numbers) are all like this.
 */
const UNCHANGED_BY_PARSER = /^[A-Za-z0-9_~/?=&-]*$/;

/** `link` on the gateway instead of the service, or null when it does not point under the target's /public/v1/. */
export function rewriteLink(link: string, target: string, publicBase: string): string | null {
  const base = baseOf(target);
  if (base === null) return null;
  // Issue 49: two URL parses a link cost more than the rest of the rewrite; a plain link needs none.
  if (link.startsWith(base.forwarded) && !link.endsWith("?") && UNCHANGED_BY_PARSER.test(link.slice(base.forwarded.length))) {
    return `${publicBase}${link.slice(base.origin.length + base.prefix.length)}`;
  }
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username || url.password || !url.pathname.startsWith(`${base.prefix}${FORWARDED_PREFIX}/`)) return null;
  return `${publicBase}${url.pathname.slice(base.prefix.length)}${url.search}${url.hash}`;
}
