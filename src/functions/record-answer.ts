/**
 * A record function's GET checked against what was asked before it fills a cell (DESIGN.md: every answer is
 * checked against the record's id and scope). A GET for one id that answers with another (a cache or proxy in
 * front of the service mixing up answers, a service bug) would otherwise show that other record's values in
 * the cell, and keep them in the cache under the id asked. It is refused instead: the cell shows #N/A saying
 * the service answered for another record, and nothing is cached (the governor keeps no failure).
 *
 * The id is what can be checked: none of the records a record function reads carries its scope (a card,
 * allowance or expense has no subsidiary or enterprise field, spec 2.1 to 2.3); the scope is the request's path.
 * A listed record answers only the call for its own id (sheets/spill/spill.ts recordPages looks records up by id).
 */
import { WrongRecordError, type SendOptions, type SpendClient } from "../api";
import type { RecordRef } from "../sheets/resources";
import { spillRecord, type Spill } from "../sheets/spill/spill";

/** The id the spill's record carries (its "id" column), or undefined when it has none. */
function idIn(spill: Spill): unknown {
  const column = spill.columns.findIndex((c) => c.key === "id");
  return column < 0 ? undefined : spill.rows[0]?.[column];
}

/**
 * Whether an answer's id names the record asked. A UUID's hexadecimal digits are case-insensitive (RFC 9562):
 * an id typed in capitals is sent as written, and a service that matches it answers with its own lower-case
 * spelling of the same record.
 */
const sameId = (asked: string, answered: unknown): boolean => typeof answered === "string" && answered.toLowerCase() === asked.toLowerCase();

/** The spill of `ref`'s GET, refused with a WrongRecordError when the answer names another record. */
export async function askedRecord(client: SpendClient, ref: RecordRef, options: SendOptions = {}): Promise<Spill> {
  const spill = await spillRecord(client, ref, options);
  const answered = idIn(spill);
  if (!sameId(ref.id, answered)) {
    const named = typeof answered === "string" && answered !== "" ? JSON.stringify(answered.slice(0, 64)) : "no id";
    throw new WrongRecordError(
      `The service answered for another record: ${ref.kind} ${ref.id} was asked, the answer is for ${named}. Nothing was kept from it; Refresh data asks again.`,
      ref.id, String(answered ?? ""));
  }
  return spill;
}
