/**
 * Team mode's preparer part, under Preview sync: Submit for approval freezes the previewed rows as a batch at
 * the gateway (the exact PATCHes the sync sends) and marks them waiting; once another person approved it,
 * Sync approved batch sends them, each PATCH naming the batch, and each row's outcome reaches the sheet and
 * the journal as a sync's always does. Confirm and sync (which would send outside any batch) is hidden.
 */
import type { TeamBatch } from "../api";
import { batchOfPreview, markWaiting, runSync, type SyncPreview } from "../sync";
import { field, h } from "./dom";
import { failed, status } from "./status";
import type { SyncPart } from "./sync-preview";
import type { TeamState } from "./team-connection";
import { batchLink, noteSubmitted } from "./team-link";
import type { SectionContext } from "./taskpane-state";

const totalsSentence = (b: TeamBatch) => b.totals.map((t) => `${t.count} to ${t.state}, ${t.amount} ${t.currency}`).join("; ");

/** What the state of a submitted batch means for the preparer. */
function waitingSentence(b: TeamBatch): string {
  if (b.state === "pending") return `Batch ${b.id} is waiting for an approver (${totalsSentence(b)}). Nothing has been sent.`;
  if (b.state === "rejected") return `Batch ${b.id} was rejected by ${b.decision?.by.name ?? "an approver"}: "${b.decision?.comment ?? ""}". Nothing was sent; fix the rows, preview and submit again.`;
  return `Batch ${b.id} expired before it was sent: preview and submit again.`;
}

/**
 * The preparer's buttons and status line; shown once a preparer signed in. `reported` shows a batch's sync
 * outcome where its preview was (section 3).
 */
export function teamSubmitPart(ctx: SectionContext, team: TeamState, reported: SyncPart["showReport"]): HTMLElement {
  let submitted: { preview: SyncPreview; batch: TeamBatch } | null = null;
  const line = h("div", { id: "team-submit-status", role: "status", "aria-live": "polite" });
  const link = h("input", { id: "team-batch-link", readOnly: true, spellcheck: false });
  const linkField = field("Link for the approver", link, "Send it by mail or chat: the approver pastes it into Open a batch in their taskpane.");
  linkField.hidden = true;
  const submit = h("button", { id: "team-submit", className: "primary", type: "button" }, "Submit for approval");
  const send = h("button", { id: "team-sync", type: "button", disabled: true }, "Sync approved batch");

  async function submitPreview(): Promise<void> {
    const preview = ctx.state.pending;
    if (!team.gateway || !preview || preview.counts.change === 0) return void status(line, "error", "Preview sync first: the rows to send are what a batch holds.");
    submit.disabled = true;
    status(line, "busy", "Submitting the batch…");
    try {
      const batch = await team.gateway.submit(await batchOfPreview(ctx.session.currentClient(), ctx.workbook, preview, preview.tableName));
      await markWaiting(ctx.workbook, preview, batch.id);
      await noteSubmitted(ctx.workbook, team.gateway.baseUrl, batch.id);
      ctx.changed();
      submitted = { preview, batch };
      send.disabled = false;
      link.value = batchLink(team.gateway.baseUrl, batch.id);
      linkField.hidden = false;
      status(line, "ok", `Submitted batch ${batch.id}: ${batch.rows?.length ?? 0} rows (${totalsSentence(batch)}), prepared by ${batch.preparer.name}. Send the link below to an approver (or have them open this workbook); nothing is sent before their approval.`);
    } catch (error) {
      failed(line, error);
    } finally {
      submit.disabled = false;
    }
  }

  async function syncApproved(): Promise<void> {
    if (!team.gateway || !submitted || ctx.state.syncing) return;
    send.disabled = submit.disabled = true;
    try {
      const batch = await team.gateway.batch(submitted.batch.id);
      if (batch.state !== "approved") return void status(line, batch.state === "pending" ? "warn" : "error", waitingSentence(batch));
      status(line, "busy", `Approved by ${batch.decision?.by.name ?? "an approver"}: sending…`);
      ctx.state.syncing = true;
      team.sending = batch.id;
      const report = await runSync(ctx.session.currentClient(), ctx.workbook, submitted.preview, {
        by: team.me?.name ?? "",
        onProgress: (done, total) => void (line.textContent = `Synced ${done} of ${total}…`),
      });
      submitted = null;
      linkField.hidden = true;
      const summary = `Batch ${batch.id}, approved by ${batch.decision?.by.name ?? "an approver"}: ${report.summary}`;
      status(line, report.stopped || report.confirmFailure ? "warn" : "ok", summary);
      reported(report, summary);
    } catch (error) {
      failed(line, error);
    } finally {
      team.sending = null;
      ctx.state.syncing = false;
      submit.disabled = false;
      send.disabled = submitted === null;
      ctx.changed();
    }
  }

  submit.addEventListener("click", () => void submitPreview());
  send.addEventListener("click", () => void syncApproved());
  return h("div", { id: "team-preparer", hidden: true }, h("div", { className: "row" }, submit, send), line, linkField);
}
