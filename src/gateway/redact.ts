/**
 * The gateway's own redaction (it imports nothing of the add-in): the caller's key may come back from the
 * service quoted in an error body, a Location header, or sit in a query string that would reach the access
 * log. Each is scrubbed of the key as sent, URL-encoded, JSON-escaped and base64-encoded (an echoed Basic
 * header), base64 at every byte alignment so it is found inside a longer base64 text too. A percent escape
 * matches in either hex case, digit by digit. (A key of which every character is escaped, `%73%6B…`, is no
 * form this finds: the access log decodes what it checks, access-log.ts.)
 */

export const REDACTED = "[redacted]";

/** Derived forms shorter than this would match ordinary text; the raw secret is always redacted. */
const MIN_DERIVED_LENGTH = 6;

/**
 * The secrets an Authorization header carries: the whole value and its credentials after the scheme
 * (`Api-Key sk_…` -> `sk_…`).
 */
function secretsOf(authorization: string | null | undefined): string[] {
  // (Headers and Node's parser give header values without surrounding whitespace.)
  if (!authorization) return [];
  const space = authorization.search(/\s/);
  return space < 0 ? [authorization] : [authorization, authorization.slice(space).trim()];
}

/**
 * The secrets of one request: what its Authorization header carries, and the keys the gateway itself holds
 * (none today; team mode's enterprise key joins here).
 */
export function requestSecrets(authorization: string | null | undefined, knownKeys: readonly string[]): string[] {
  return [...secretsOf(authorization), ...knownKeys.filter((key) => key !== "")];
}

/**
 * Redactors built lately, by their secrets, the most recently used last: building one (every form of a key, one
 * regular expression) costs ~0.1-0.2 ms, as much as relaying a whole page, and a caller sends the same key with
 * every request (issue 49). Bounded, and only in memory: nothing of it is written anywhere.
 */
const RECENT_REDACTORS = 64;
const recent = new Map<string, (text: string) => string>();

/** A redactor for these secrets: every form of each becomes [redacted]. */
export function redactorFor(secrets: readonly string[]): (text: string) => string {
  const id = secrets.join("\n");
  let redactor = recent.get(id);
  if (redactor) recent.delete(id);
  else redactor = buildRedactor(secrets);
  recent.set(id, redactor);
  if (recent.size > RECENT_REDACTORS) recent.delete(recent.keys().next().value!);
  return redactor;
}

function buildRedactor(secrets: readonly string[]): (text: string) => string {
  const alternatives = secrets.flatMap(formsOf).sort((a, b) => b.length - a.length);
  if (alternatives.length === 0) return (text) => text;
  const pattern = new RegExp(alternatives.join("|"), "g");
  return (text) => text.replace(pattern, REDACTED);
}

/** Regular-expression alternatives matching `secret` in its literal and base64 forms. */
function formsOf(secret: string): string[] {
  const literal = new Set<string>([secret, JSON.stringify(secret).slice(1, -1)]);
  const encoded = [encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)];
  for (const form of [...encoded, ...encoded.map((e) => encodeURIComponent(e))]) literal.add(form);
  const literals = [...literal].filter((f) => f === secret || f.length >= MIN_DERIVED_LENGTH).map((f) => anyHexCase(escapeRegExp(f)));
  // One base64 character on either side still carries bits of the secret, and padding may follow.
  const cores = base64Cores(secret).map((core) => `[A-Za-z0-9+/_-]?${escapeRegExp(core)}[A-Za-z0-9+/_-]?={0,2}`);
  return [...cores, ...literals];
}

/** The base64 characters that depend only on the secret's bytes, at byte offsets 0, 1 and 2, standard and url-safe. */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const b64 = toBase64(padded);
    const core = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length < MIN_DERIVED_LENGTH) continue;
    cores.add(core);
    cores.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...cores];
}

/** Each percent escape of a pattern in either hex case, one digit at a time: %2F, %2f (and %5f%5F in one key) are the same bytes. */
function anyHexCase(pattern: string): string {
  return pattern.replace(/%([0-9A-F])([0-9A-F])/g, (_, high: string, low: string) => `%${hexDigit(high)}${hexDigit(low)}`);
}

function hexDigit(digit: string): string {
  return /[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** btoa over bytes: Workers, Node 20 and Deno all have btoa; Buffer is Node only. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
