/**
 * What a matched line does to a record: fill its tracked cells, nothing (it already holds the line's value), or
 * nothing because it holds another value or is in a state the value cannot be given in (a conflict: never overwritten).
 */
import type { ImportLine } from "./lines";
import type { ImportKind } from "./mapping";
import type { ImportRecord } from "./records";

export interface FillValues {
  state: "accounted" | "paid";
  accounted_id?: string;
  paid_id?: string;
  paid_at?: string;
}

export type Judgement = { kind: "fill"; values: FillValues } | { kind: "already" } | { kind: "conflict"; why: string };

/** The Paid at a line gives: its instant when the file had one, else its day at 00:00 UTC. */
const paidAtOf = (line: ImportLine): string => line.instant ?? `${line.day}T00:00:00Z`;

function judgeBank(record: ImportRecord, line: ImportLine): Judgement {
  if (record.paid_id === line.value) return { kind: "already" };
  if (record.paid_id !== "") return { kind: "conflict", why: `${record.label} already holds Paid ID ${record.paid_id}` };
  if (record.state === "paid") return { kind: "conflict", why: `${record.label} is already paid (without a Paid ID)` };
  if (record.state !== "approved" && record.state !== "accounted") {
    return { kind: "conflict", why: `${record.label} is ${record.state || "without a state"}: only approved or accounted records can be paid` };
  }
  const paidAt = paidAtOf(line);
  if (record.paid_at !== "" && record.paid_at !== paidAt) return { kind: "conflict", why: `${record.label} already holds Paid at ${record.paid_at}` };
  return { kind: "fill", values: { state: "paid", paid_id: line.value, paid_at: paidAt } };
}

function judgeErp(record: ImportRecord, line: ImportLine): Judgement {
  if (record.accounted_id === line.value) return { kind: "already" };
  if (record.accounted_id !== "") return { kind: "conflict", why: `${record.label} already holds Accounted ID ${record.accounted_id}` };
  if (record.state !== "approved") {
    return { kind: "conflict", why: `${record.label} is ${record.state || "without a state"}: an Accounted ID is sent only with the change from approved to accounted` };
  }
  return { kind: "fill", values: { state: "accounted", accounted_id: line.value } };
}

/** The judgement of one record for one line. Pure. */
export function judge(kind: ImportKind, record: ImportRecord, line: ImportLine): Judgement {
  return kind === "bank" ? judgeBank(record, line) : judgeErp(record, line);
}

/** One judgement for all the records a line pays: all filled, all already, or a conflict (then none is filled). */
export function judgeAll(kind: ImportKind, records: readonly ImportRecord[], line: ImportLine): Judgement {
  const each = records.map((r) => judge(kind, r, line));
  const conflict = each.find((j) => j.kind === "conflict");
  if (conflict) return conflict;
  if (each.every((j) => j.kind === "already")) return { kind: "already" };
  if (each.some((j) => j.kind === "already")) return { kind: "conflict", why: "some of its records already hold this value and others do not" };
  return each[0];
}
