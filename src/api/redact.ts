/**
 * The one redaction point of the add-in (DESIGN.md security rules): every error message the client builds,
 * every journal line and every log line goes through `redactSecrets`. A client registers its key when it is
 * built, so code that never sees the key (schema checks, pagination, sync's journal) still redacts it.
 *
 * A server or proxy can quote the key in many spellings: as sent, URL-encoded (a query string, a form body),
 * JSON-escaped, or base64 (a Basic auth header such as base64("enterprise:key") echoed back). Base64 of a
 * longer text shifts the key's bits by 0, 1 or 2 bytes, so the key's base64 is matched at all three
 * alignments, standard and url-safe, wherever it sits inside a longer base64 string.
 *
 * In any case: code that compares values lower-cases them (a record's state is kept lower-cased in the snapshot),
 * and a key in other letters is still the key, or all but a few guesses of it. Matching follows JavaScript's
 * case-insensitive regular expressions; the quick test before it compares upper-cased texts, which finds every
 * text such a pattern can match.
 */

export const REDACTED = "[redacted]";

/** Shorter derived forms (a base64 core of a 2-character key) would match ordinary words; the raw key is always redacted. */
const MIN_DERIVED_LENGTH = 6;

/**
 * A registered secret's pattern, and the fixed strings of its alternatives (upper-cased): every text the pattern matches
 * contains one of them, so a text that contains none (most cells of a load are shorter than any) is left as
 * it is without running the pattern, with the same result.
 */
interface Registered {
  pattern: RegExp;
  needles: string[];
  shortest: number;
}

const patterns = new Map<string, Registered>();
/** The registered patterns, longest secret first: a secret that is the start of a longer one would leave its tail. */
let longestFirst: Registered[] = [];

function order(): void {
  longestFirst = [...patterns.entries()].sort(([a], [b]) => b.length - a.length).map(([, registered]) => registered);
}

/** From now on, `redactSecrets` hides `secret` in every form. Called by SpendClient with its key. */
export function registerSecret(secret: string): void {
  if (!secret || patterns.has(secret)) return;
  const forms = [...base64Cores(secret), ...literalForms(secret)];
  patterns.set(secret, { pattern: patternFor(secret), needles: forms.map((form) => form.toUpperCase()), shortest: Math.min(...forms.map((form) => form.length)) });
  order();
}

/** Stops redacting `secret` (tests; a key that was never real). */
export function forgetSecret(secret: string): void {
  patterns.delete(secret);
  order();
}

/** Replaces every registered secret, in every form, with [redacted]. Use it on anything written to a log, a sheet or an error. */
export function redactSecrets(text: string): string {
  let out = String(text);
  let upper: string | null = null;
  for (const { pattern, needles, shortest } of longestFirst) {
    if (out.length < shortest) continue;
    const seen = (upper ??= out.toUpperCase());
    if (!needles.some((needle) => seen.includes(needle))) continue;
    out = out.replace(pattern, REDACTED);
    upper = null;
  }
  return out;
}

/** Replaces `secret` (and its encoded forms) in `text`, whether or not it is registered. */
export function redact(text: string, secret: string): string {
  if (!secret) return text;
  return String(text).replace(patternFor(secret), REDACTED);
}

/** The spellings of `secret` that are matched literally: raw, JSON-escaped, percent-encoded and form-encoded. */
export function literalForms(secret: string): string[] {
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1)]);
  const encoded = [encodeURIComponent(secret), encodeURI(secret), new URLSearchParams({ k: secret }).toString().slice(2)];
  // Percent escapes in small letters (%2f for %2F) need no form of their own: matching ignores case.
  for (const form of [...encoded, ...encoded.map((e) => encodeURIComponent(e))]) forms.add(form);
  return [...forms].filter((f) => f === secret || f.length >= MIN_DERIVED_LENGTH);
}

/**
 * The base64 characters that depend only on the secret's bytes, for each of the three byte alignments, in
 * the standard and the url-safe alphabet.
 */
export function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const b64 = base64(padded);
    const core = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length < MIN_DERIVED_LENGTH) continue;
    cores.add(core);
    cores.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...cores];
}

function patternFor(secret: string): RegExp {
  const literals = literalForms(secret).map(escapeRegExp);
  // One base64 character on each side still carries a few bits of the key, and padding may follow: take them too.
  const cores = base64Cores(secret).map((core) => `[A-Za-z0-9+/_-]?${escapeRegExp(core)}[A-Za-z0-9+/_-]?={0,2}`);
  const alternatives = [...cores, ...literals].sort((a, b) => b.length - a.length);
  return new RegExp(alternatives.join("|"), "gi");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** btoa over bytes: the webview and Node 20 both have btoa, neither needs Buffer. */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
