/** Reads a state PATCH body: JSON only, decoded strictly, then parsed by the rules of src/domain. */
import type { Context } from "hono";
import { parsePatchBody, type StatePatch } from "../domain";
import { badRequest } from "./http-errors";
import { decodeJson } from "./json-body";

// application/json with at most a UTF-8 charset parameter. Not application/json-patch+json or
// application/jsonx, which a `\b` test once let through; a JSON body in UTF-16 would not decode anyway.
const JSON_TYPE = /^application\/json[ \t]*(;[ \t]*charset[ \t]*=[ \t]*(utf-8|"utf-8")[ \t]*)?$/i;

/**
 * Spec section 7 maps an invalid payload to 400, and that is what a wrong Content-Type gets too (not
 * 415): a client written to the spec handles it as the invalid request it is (docs/sandbox.md).
 */
export async function readPatch(c: Context): Promise<StatePatch> {
  const type = c.req.header("content-type") ?? "";
  if (!JSON_TYPE.test(type.trim())) {
    const got = type === "" ? "none" : `'${type.slice(0, 80)}'`;
    throw badRequest(`Content-Type must be application/json; got ${got}.`);
  }
  const decoded = decodeJson(new Uint8Array(await c.req.arrayBuffer()));
  if (!decoded.ok) throw badRequest(decoded.message);
  // As sent: paid_at in ISO 8601's extended form only (docs/sandbox.md, "Leniencies decided").
  const parsed = parsePatchBody(decoded.value, { wire: true });
  if (!parsed.ok) throw badRequest(parsed.message);
  return parsed.patch;
}
