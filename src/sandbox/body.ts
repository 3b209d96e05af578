/** Reads a state PATCH body: JSON only, parsed by the rules of src/domain. */
import type { Context } from "hono";
import { parsePatchBody, type StatePatch } from "../domain";
import { ApiError, badRequest } from "./http-errors";

export async function readPatch(c: Context): Promise<StatePatch> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(415, "Content-Type must be application/json.");
  }
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  const parsed = parsePatchBody(body);
  if (!parsed.ok) throw badRequest(parsed.message);
  return parsed.patch;
}
