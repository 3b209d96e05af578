/** The API key never enters an error, a log line or a thrown object (DESIGN.md security rules). */

export const REDACTED = "[redacted]";

/** Replaces every occurrence of the secret in `text`. */
export function redact(text: string, secret: string): string {
  if (!secret) return text;
  return text.split(secret).join(REDACTED);
}
