/** The body of a state PATCH, checked with the service's own rules before anything is sent. */
import { messages, parsePatchBody, type StatePatch } from "../domain";
import { InvalidRequestError } from "./errors";

export type { StatePatch };

/** Returns the body to send (paid_at in UTC), or throws InvalidRequestError with the service's wording. */
export function checkedPatch(patch: StatePatch): StatePatch {
  const parsed = parsePatchBody(patch);
  if (!parsed.ok) throw new InvalidRequestError(parsed.message);
  const body = parsed.patch;
  if (body.state === "accounted" && (body.paid_id !== undefined || body.paid_at !== undefined)) {
    throw new InvalidRequestError(messages.paidFieldsWithAccounted());
  }
  return body;
}
