/**
 * What a preparer submits as a batch, checked before anything is stored: the exact PATCH requests (method,
 * path, body as the bytes the add-in will send), one row per request saying what the approver reads
 * (record, from → to, amount, currency), and the totals per target state and currency. The gateway checks
 * that each row says what its request does (its state is the body's), that every path is a record of this
 * enterprise, and computes the totals itself: a batch whose stated totals differ is refused, so an approver
 * never reads figures the requests do not carry.
 */
import { sumDecimals, isDecimal } from "./decimal";

export interface BatchRequest {
  method: "PATCH";
  path: string;
  /** The body exactly as it will be sent (the PATCH must match it byte for byte). */
  body: string;
}

export interface BatchRow {
  /** Index of its request. */
  request: number;
  resource: "expense" | "allowance";
  id: string;
  /** What the approver recognizes the record by (a description, a person); free text. */
  label: string;
  from: string;
  to: string;
  amount: string;
  currency: string;
}

export interface BatchTotal {
  state: string;
  currency: string;
  count: number;
  amount: string;
}

export interface BatchInput {
  requests: BatchRequest[];
  rows: BatchRow[];
  totals: BatchTotal[];
  /** Where it was prepared (a workbook's name), to show the approver. */
  source: string;
}

/** At most this many PATCHes in one batch (a month's run of a large subsidiary). */
const MAX_BATCH_REQUESTS = 5000;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

type Parsed = { ok: true; input: BatchInput } | { ok: false; message: string };

const text = (value: unknown, max = 200): value is string => typeof value === "string" && value.length <= max;

/** Checks a submitted batch against the enterprise the gateway serves. */
export function parseBatchInput(raw: unknown, enterpriseId: string): Parsed {
  const body = raw as { requests?: unknown; rows?: unknown; totals?: unknown; source?: unknown } | null;
  if (typeof body !== "object" || body === null || !Array.isArray(body.requests) || !Array.isArray(body.rows)) {
    return { ok: false, message: "A batch is {\"requests\": [...], \"rows\": [...], \"totals\": [...]}." };
  }
  if (body.requests.length === 0 || body.requests.length > MAX_BATCH_REQUESTS) return { ok: false, message: `A batch holds 1 to ${MAX_BATCH_REQUESTS} requests.` };
  const pathPattern = new RegExp(`^/public/v1/enterprises/${enterpriseId}/subsidiaries/${UUID}/(expenses|allowances)/(${UUID})/$`, "i");
  const requests: BatchRequest[] = [];
  const paths = new Set<string>();
  for (const [i, r] of (body.requests as { method?: unknown; path?: unknown; body?: unknown }[]).entries()) {
    if (r?.method !== "PATCH") return { ok: false, message: `Request ${i + 1}: only PATCH requests are batched.` };
    if (!text(r.path, 300) || !pathPattern.test(r.path)) return { ok: false, message: `Request ${i + 1}: the path must be an expense or allowance of enterprise ${enterpriseId}.` };
    if (paths.has(r.path.toLowerCase())) return { ok: false, message: `Request ${i + 1}: ${r.path} is already in this batch; one PATCH per record.` };
    if (!text(r.body, 4096) || stateOf(r.body) === undefined) return { ok: false, message: `Request ${i + 1}: the body must be the JSON text sent, with a state.` };
    paths.add(r.path.toLowerCase());
    requests.push({ method: "PATCH", path: r.path, body: r.body });
  }
  const rows = parseRows(body.rows, requests);
  if (typeof rows === "string") return { ok: false, message: rows };
  const totals = totalsOf(rows);
  if (body.totals !== undefined && !sameTotals(body.totals, totals)) {
    return { ok: false, message: `The totals do not add up from the rows; the rows give ${totals.map((t) => `${t.count} ${t.state} ${t.amount} ${t.currency}`).join(", ")}.` };
  }
  return { ok: true, input: { requests, rows, totals, source: text(body.source) ? body.source : "" } };
}

function stateOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const state = (parsed as { state?: unknown } | null)?.state;
    return typeof parsed === "object" && !Array.isArray(parsed) && typeof state === "string" ? state : undefined;
  } catch {
    return undefined;
  }
}

/** The rows, one per request and in its order; a sentence when one does not match its request. */
function parseRows(raw: unknown[], requests: BatchRequest[]): BatchRow[] | string {
  if (raw.length !== requests.length) return `A batch has one row per request: ${requests.length} requests, ${raw.length} rows.`;
  const rows: BatchRow[] = [];
  for (const [i, value] of raw.entries()) {
    const r = value as Partial<Record<keyof BatchRow, unknown>> | null;
    const request = requests[i];
    const match = /\/(expenses|allowances)\/([^/]+)\/$/.exec(request.path);
    if (r?.request !== i || !match) return `Row ${i + 1} must describe request ${i + 1} ("request": ${i}).`;
    if (!text(r.from, 40) || !text(r.to, 40) || !text(r.currency, 10) || !text(r.amount, 40) || !isDecimal(r.amount)) {
      return `Row ${i + 1} needs from, to, amount (a decimal like 12.50) and currency.`;
    }
    if (r.to !== stateOf(request.body)) return `Row ${i + 1} says ${r.to} but its request sends ${stateOf(request.body)}.`;
    if (r.id !== undefined && String(r.id).toLowerCase() !== match[2].toLowerCase()) return `Row ${i + 1} names another record than its request.`;
    const resource = match[1] === "expenses" ? "expense" : "allowance";
    rows.push({ request: i, resource, id: match[2], label: text(r.label, 300) ? r.label : "", from: r.from, to: r.to, amount: r.amount, currency: r.currency });
  }
  return rows;
}

/** Count and sum per target state and currency, ordered by state then currency. */
function totalsOf(rows: BatchRow[]): BatchTotal[] {
  const groups = new Map<string, BatchRow[]>();
  for (const row of rows) {
    const key = `${row.to}\u0000${row.currency}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, members]) => ({
    state: members[0].to, currency: members[0].currency, count: members.length, amount: sumDecimals(members.map((m) => m.amount)),
  }));
}

function sameTotals(stated: unknown, computed: BatchTotal[]): boolean {
  if (!Array.isArray(stated) || stated.length !== computed.length) return false;
  return computed.every((t) => stated.some((s: Partial<BatchTotal> | null) =>
    s?.state === t.state && s.currency === t.currency && s.count === t.count && typeof s.amount === "string" && isDecimal(s.amount) && sumDecimals([s.amount]) === sumDecimals([t.amount])));
}
