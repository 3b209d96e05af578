/**
 * What the gateway can tell of a key it was never told. A caller that puts its key in the URL instead of the
 * Authorization header hands it to the access log (and to every proxy's log on the way), and the gateway has
 * no header to learn it from. So a text is judged by its shape, after undoing what a URL or a Basic header
 * does to it (percent-encoding up to three times, in either hex case; base64, standard or url-safe):
 *
 * - `sk_` or `sk-` and 12 or more key characters (`[A-Za-z0-9_-]`), not glued to a word before it: the
 *   sandbox's keys (`sk_sandbox_` and 32 hex digits) and the usual `sk_live_…`/`sk_test_…` ones;
 * - 32 or more key characters in a row that are not exactly a UUID: an opaque credential. The spec does not
 *   show the service's key format; nothing the service takes in a URL is like it (its ids are UUIDs, its
 *   query values numbers, dates, states and expand names of at most 18 characters);
 * - `Api-Key` (or `api_key`, `apikey`), a space, `+`, `:` or `=`, and 4 or more characters: the header itself
 *   pasted into a URL, or a parameter that says what it holds.
 *
 * A key shaped like none of these (short, unprefixed, or a bare UUID) is caught only when the gateway knows it
 * (the caller's Authorization header; see redact.ts). docs/deploy.md, "What the gateway never forwards".
 */

const PREFIXED = /(?<![A-Za-z0-9])sk[_-][A-Za-z0-9_-]{12,}/;
const LONG_RUN = /[A-Za-z0-9_-]{32,}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEADER = /(?<![A-Za-z0-9])api[-_ ]?key[\s+:=]+[^\s&;,]{4,}/i;
/** Base64 long enough to hold a prefixed key (15 bytes are 20 characters); `+` and `/` only in the first kind. */
const BASE64_RUNS = [/[A-Za-z0-9+/_-]{16,}/g, /[A-Za-z0-9_-]{16,}/g];
/** A key URL-encoded twice (a link inside a query value) is decoded by three rounds, with one to spare. */
const DECODE_ROUNDS = 3;

/**
 * Nothing shorter than this many key or base64 characters in a row can be, or decode to, a key's shape (a
 * prefixed key is 15 characters; its base64, 20); without such a run, an `api` or a `%`, a text holds none.
 */
const MAY_HOLD_ONE = /[A-Za-z0-9+/_-]{15,}|api|%/i;

/** True when `text`, or what it decodes to, holds something shaped like a key. */
export function holdsKeyShape(text: string): boolean {
  if (!MAY_HOLD_ONE.test(text)) return false;
  return decodedForms(text).some((form) => shapedPlain(form) || base64Texts(form).some(shapedPlain));
}

/** `text` as sent, then percent-decoded once, twice, three times (each round stops changing once nothing is left). */
export function decodedForms(text: string): string[] {
  const forms = [text];
  for (let i = 0; i < DECODE_ROUNDS; i++) {
    const next = percentDecode(forms[forms.length - 1]);
    if (next === forms[forms.length - 1]) break;
    forms.push(next);
  }
  return forms;
}

/** Every valid %XX escape decoded (as UTF-8 where it is, else byte by byte); anything else left as it is. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

function shapedPlain(text: string): boolean {
  if (PREFIXED.test(text) || HEADER.test(text)) return true;
  for (const [run] of text.matchAll(LONG_RUN)) if (!UUID.test(run)) return true;
  return false;
}

/**
 * What each base64-looking run of `text` decodes to, read from each of its first four characters: a run glued
 * to a few other characters before it still decodes, from one of them, in step with its own blocks.
 */
function base64Texts(text: string): string[] {
  const out: string[] = [];
  for (const pattern of BASE64_RUNS) {
    for (const [run] of text.matchAll(pattern)) {
      // A UUID is an id; 32 or more characters without + or / are a long run already (shapedPlain).
      if (UUID.test(run) || (run.length >= 32 && !/[+/]/.test(run))) continue;
      const standard = run.replace(/-/g, "+").replace(/_/g, "/");
      for (let offset = 0; offset < 4; offset++) out.push(base64Bytes(standard.slice(offset)));
    }
  }
  return out;
}

/** The bytes of a base64 text as one character each (latin1), its incomplete last block dropped. */
function base64Bytes(text: string): string {
  const whole = text.slice(0, text.length - (text.length % 4));
  try {
    return atob(whole);
  } catch {
    return "";
  }
}
