/**
 * Finds a secret in text in any spelling a server might echo it in, decoding independently of
 * src/api/redact.ts (a test that used the code under test to look for leaks could not fail).
 */

/** True when `text` holds `secret` raw, percent- or form-encoded (once or twice), or inside any base64 run. */
export function containsSecret(text: string, secret: string): boolean {
  for (const candidate of decodings(text)) if (candidate.includes(secret)) return true;
  return false;
}

function decodings(text: string): string[] {
  const out = [text];
  let current = text;
  for (let i = 0; i < 2; i++) {
    current = safeDecode(current.replace(/\+/g, " "));
    out.push(current, safeDecode(text));
  }
  // Every run of base64 characters, decoded at each of the 4 character alignments, in both alphabets.
  for (const run of text.match(/[A-Za-z0-9+/_-]{6,}={0,2}/g) ?? []) {
    const standard = run.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    // Buffer decodes a trailing partial group as far as it goes, so nothing is cut off.
    for (let skip = 0; skip < 4; skip++) out.push(Buffer.from(standard.slice(skip), "base64").toString("latin1"));
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** The ways an error can be shown or stored: message, String(), JSON, inspect, stack. */
export function errorTexts(error: unknown, inspect: (value: unknown) => string): string[] {
  const e = error as Error;
  return [e?.message ?? "", String(error), JSON.stringify(error) ?? "", inspect(error), e?.stack ?? ""];
}
