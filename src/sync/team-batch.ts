/**
 * Team mode's Preview: the batch a preparer submits for approval (docs/team-mode.md), built from the preview
 * with the sync's own request builder, so each frozen body is byte for byte the PATCH the sync sends after
 * approval; and the sheet's rows marked as waiting for it.
 */
import {
  allowancePatchRequest, expensePatchRequest, patchBodyText, type BatchRowOut, type BatchSubmission, type SpendClient,
} from "../api";
import { STATUS_KEY, type CellValue, type Workbook } from "../sheets";
import type { PlannedRow } from "./plan";
import type { SyncPreview } from "./preview";

/** The rows a sync of this preview sends: its changes, and the rows to check once the person confirmed them. */
const rowsToSend = (preview: SyncPreview, sendChecked: boolean): PlannedRow[] =>
  preview.rows.filter((r) => r.patch && (r.kind === "change" || (sendChecked && r.kind === "check")));

/** An amount cell as the decimal text the gateway sums exactly ("12.5", never "1.25e1"). */
function decimalText(value: CellValue): string {
  const text = typeof value === "number" ? String(value) : String(value).trim();
  return /^-?\d{1,20}(\.\d{1,8})?$/.test(text) ? text : typeof value === "number" && Number.isFinite(value) ? value.toFixed(2) : "0";
}

/** The batch for `preview`'s rows to send: the exact PATCHes, one row each (id, label, from -> to, amount), the totals. */
export async function batchOfPreview(client: SpendClient, workbook: Workbook, preview: SyncPreview, source: string, sendChecked = false): Promise<BatchSubmission> {
  const table = preview.opened;
  const layout = table.query.source.columns;
  const header = (key: string) => layout.find((c) => c.key === key)?.header ?? "";
  const read = await workbook.readColumns(preview.tableName, [header("description"), header("amount"), header("currency")]);
  const cell = (key: string, row: number): CellValue => read?.columns.get(header(key))?.[row] ?? "";
  const build = table.resource === "expense" ? expensePatchRequest : allowancePatchRequest;
  const requests: BatchSubmission["requests"] = [];
  const rows: BatchRowOut[] = [];
  for (const planned of rowsToSend(preview, sendChecked)) {
    const { url, body } = build(client, table.subsidiaryId, planned.id, planned.patch!);
    const at = planned.rows[0];
    rows.push({
      request: requests.length, id: planned.id, label: String(cell("description", at)).slice(0, 300),
      from: planned.loaded?.state ?? "", to: planned.patch!.state, amount: decimalText(cell("amount", at)), currency: String(cell("currency", at)).slice(0, 10),
    });
    requests.push({ method: "PATCH", path: new URL(url).pathname, body: patchBodyText(body) });
  }
  return { source, requests, rows, totals: totalsOf(rows) };
}

/** Totals per target state and currency, summed exactly (the gateway computes them too and refuses a difference). */
function totalsOf(rows: BatchRowOut[]): BatchSubmission["totals"] {
  const groups = new Map<string, BatchRowOut[]>();
  for (const row of rows) groups.set(`${row.to} ${row.currency}`, [...(groups.get(`${row.to} ${row.currency}`) ?? []), row]);
  return [...groups.values()].map((members) => ({ state: members[0].to, currency: members[0].currency, count: members.length, amount: exactSum(members.map((m) => m.amount)) }));
}

/**
 * The exact sum of decimal texts, with as many decimals as the most precise term: money is never a float sum here.
 * The gateway sums the same way (src/gateway/team/decimal.ts) and refuses a batch whose totals differ; it imports
 * nothing of the add-in (DESIGN.md), so the rule is written twice (a difference shows as a refused Submit).
 */
function exactSum(terms: string[]): string {
  const places = Math.max(0, ...terms.map((t) => (t.split(".")[1] ?? "").length));
  let total = 0n;
  for (const term of terms) {
    const [whole, fraction = ""] = term.replace("-", "").split(".");
    const scaled = BigInt(whole + fraction.padEnd(places, "0"));
    total += term.startsWith("-") ? -scaled : scaled;
  }
  const digits = (total < 0n ? -total : total).toString().padStart(places + 1, "0");
  const sign = total < 0n ? "-" : "";
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** Each submitted row's Sync status: waiting for the batch's approval (nothing has been sent). */
export async function markWaiting(workbook: Workbook, preview: SyncPreview, batchId: string, sendChecked = false): Promise<void> {
  const table = preview.opened;
  const value = `Waiting for approval (batch ${batchId.slice(0, 8)}): nothing sent yet.`;
  const cells = rowsToSend(preview, sendChecked).flatMap((r) => r.rows.map((row) => ({ row, column: table.columns[STATUS_KEY], value })));
  if (cells.length > 0) await workbook.writeCells(preview.tableName, cells);
}
