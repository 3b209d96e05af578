/**
 * What a caught value says, as one sentence's worth of text: an Error's message, the `message` of an error-like
 * object (an Office.js or a structured-clone error), else the value as text. A `catch` binds `unknown`; this is the
 * one reading of it (issue 44: casts to Error read `undefined` from a thrown string).
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") return error.message;
  return String(error);
}
