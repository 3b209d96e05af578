/** Which links the rewriter (links.ts) rewrites, and to what. */
import { FORWARDED_PREFIX } from "./limits";

/** `link` on the gateway instead of the service, or null when it does not point under the target's /public/v1/. */
export function rewriteLink(link: string, target: string, publicBase: string): string | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(link);
    base = new URL(target);
  } catch {
    return null;
  }
  // (The target is checked: no trailing slash, but for the bare origin's `/`.)
  const prefix = base.pathname.replace(/\/$/, "");
  if (url.origin !== base.origin || url.username || url.password || !url.pathname.startsWith(`${prefix}${FORWARDED_PREFIX}/`)) return null;
  return `${publicBase}${url.pathname.slice(prefix.length)}${url.search}${url.hash}`;
}
