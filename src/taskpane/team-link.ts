/**
 * How an approver gets to a batch prepared elsewhere. An Office add-in cannot be opened by a link: Excel loads
 * the taskpane at the address its manifest names, with no query of ours, and a desktop Excel opens no add-in from
 * a browser. So there are two ways, both in the approver's own taskpane:
 *   - a link: the gateway's address for the batch, `<gateway>/team/v1/link/<id>`, which the preparer sends (mail,
 *     chat). Opened in a browser, the gateway answers with what to do (that page is public and shows nothing of
 *     the batch); pasted into "Open a batch", the taskpane opens the batch from the signed-in gateway.
 *   - the same workbook: Submit for approval writes the batch's id and gateway into the workbook's settings
 *     (which travel with the file, never the key or a token); an approver who opens that workbook and signs in
 *     through the same gateway is offered it.
 */
import type { Workbook } from "../sheets";

/** The gateway's path of a batch's link (the gateway's routes.ts answers it). */
const LINK_PATH = "/team/v1/link/";
/**
 * The workbook setting naming the batch last submitted from it.
 * @internal team-batch-link.test.ts reads what was noted and breaks it.
 */
export const SUBMITTED_SETTING = "spendsync.team.submitted";

const BATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The link to send an approver for batch `id` at the gateway `gatewayBase`. */
export const batchLink = (gatewayBase: string, id: string): string => `${gatewayBase.replace(/\/+$/, "")}${LINK_PATH}${id}`;

/** The batch a pasted text names: a link of this gateway, or a bare id; else a sentence saying why not. */
export function batchIdOf(text: string, gatewayBase: string): { id: string } | { error: string } {
  const typed = text.trim();
  if (BATCH_ID.test(typed)) return { id: typed.toLowerCase() };
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { error: "Paste the batch's link (or its id) as the preparer sent it." };
  }
  const gateway = new URL(gatewayBase);
  if (url.origin !== gateway.origin) return { error: `This link is not of your gateway (${gateway.origin}): ask the preparer for the link their taskpane showed.` };
  const base = gateway.pathname.replace(/\/+$/, "");
  const id = url.pathname.startsWith(`${base}${LINK_PATH}`) ? url.pathname.slice(base.length + LINK_PATH.length) : "";
  return BATCH_ID.test(id) ? { id: id.toLowerCase() } : { error: "This address names no batch: paste the link as the preparer sent it." };
}

/** Notes in the workbook the batch just submitted from it, with its gateway (an approver opening the file is offered it). */
export async function noteSubmitted(workbook: Workbook, gatewayBase: string, id: string): Promise<void> {
  await workbook.writeSetting(SUBMITTED_SETTING, JSON.stringify({ gateway: gatewayBase, id }));
}

/** The batch last submitted from this workbook through `gatewayBase`, if any. */
export async function submittedHere(workbook: Workbook, gatewayBase: string): Promise<string | null> {
  try {
    const raw = await workbook.readSetting(SUBMITTED_SETTING);
    const noted = raw ? (JSON.parse(raw) as { gateway?: unknown; id?: unknown }) : null;
    return noted && noted.gateway === gatewayBase && typeof noted.id === "string" && BATCH_ID.test(noted.id) ? noted.id : null;
  } catch {
    return null;
  }
}
