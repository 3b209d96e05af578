/**
 * Team mode's section 4: for a preparer, Submit for approval (team-submit.ts); for an approver, the batches
 * waiting for approval (or one opened by the link the preparer sent, or its id; or the one submitted from this
 * very workbook, team-link.ts), each with its preparer, its
 * totals and its rows from -> to, and Approve / Reject with a comment. Neither is offered on one's own batch:
 * the gateway refuses it anyway. Approve names the hash of the batch shown, so what is approved is what was read.
 */
import type { TeamBatch } from "../api";
import { amountText } from "../sheets";
import { field, h, setChildren } from "./dom";
import { failed, status } from "./status";
import type { SyncPart } from "./sync-preview";
import type { TeamState } from "./team-connection";
import { batchIdOf, submittedHere } from "./team-link";
import { teamSubmitPart } from "./team-submit";
import type { SectionContext } from "./taskpane-state";

const when = (iso: string) => iso.replace("T", " ").slice(0, 16) + " UTC";

/**
 * A batch's amount (exact decimal text) as the rest of the add-in shows money: its currency's decimals, thousands
 * grouped ("308.10 USD", "6,689,302 CLP"). A figure past a double's 15 significant digits is shown as it came,
 * so the approver never reads a rounded amount.
 */
function money(amount: string, currency: string): string {
  const value = Number(amount);
  const digits = amount.replace(/^-/, "").replace(".", "").replace(/^0+/, "").length;
  return Number.isFinite(value) && digits <= 15 ? amountText(value, currency) : amount;
}

/** A batch's totals as a table: state, currency, rows, amount. */
function totalsTable(b: TeamBatch): HTMLElement {
  return h("table", { className: "team-totals" }, h("tr", {}, h("th", {}, "To"), h("th", {}, "Currency"), h("th", {}, "Rows"), h("th", {}, "Amount")),
    ...b.totals.map((t) => h("tr", {}, h("td", {}, t.state), h("td", {}, t.currency), h("td", {}, t.count), h("td", {}, money(t.amount, t.currency)))));
}

/** The batch opened: who prepared it, when, its totals and rows, and the decision or the buttons to make it. */
function batchView(team: TeamState, b: TeamBatch, decided: (b: TeamBatch) => void): HTMLElement {
  const comment = h("textarea", { id: "team-comment", rows: 2, placeholder: "why (required to reject)" });
  const line = h("div", { id: "team-decision-status", role: "status", "aria-live": "polite" });
  const own = team.me?.id === b.preparer.id;
  const approver = team.me?.roles.includes("approver") ?? false;
  async function decide(approve: boolean): Promise<void> {
    if (!team.gateway) return;
    status(line, "busy", approve ? "Approving…" : "Rejecting…");
    try {
      decided(approve ? await team.gateway.approve(b.id, b.hash, comment.value.trim()) : await team.gateway.reject(b.id, comment.value.trim()));
    } catch (error) {
      failed(line, error);
    }
  }
  const rows = b.rows ?? [];
  const shown = rows.slice(0, 200);
  return h("div", { id: "team-batch", "data-batch": b.id },
    h("p", { id: "team-batch-head" }, `Batch ${b.id}: ${rows.length} rows from ${b.source || "a workbook"}, prepared by ${b.preparer.name} on ${when(b.preparedAt)}; ${b.state}` +
      (b.decision ? ` by ${b.decision.by.name} on ${when(b.decision.at)}${b.decision.comment ? `: "${b.decision.comment}"` : "."}` : `, valid until ${when(b.validUntil)}.`)),
    totalsTable(b),
    h("ul", { className: "rows team-rows" }, ...shown.map((r) => h("li", {}, `${r.id.slice(0, 8)} ${r.label}: ${r.from} → ${r.to}, ${money(r.amount, r.currency)} ${r.currency}`)),
      rows.length > shown.length ? h("li", {}, `… and ${rows.length - shown.length} more.`) : null),
    b.state !== "pending" ? null
      : own ? h("p", { className: "hint" }, "You prepared this batch: another approver decides it.")
        : approver ? h("div", {}, field("Comment", comment), h("div", { className: "row" },
          h("button", { id: "team-approve", className: "primary", type: "button", onclick: () => void decide(true) }, "Approve"),
          h("button", { id: "team-reject", type: "button", onclick: () => void decide(false) }, "Reject")), line)
          : null);
}

/** The approver's list and the batch opened; `open` takes a batch's link or id. */
function approverPart(team: TeamState): { element: HTMLElement; open: (text: string) => Promise<void> } {
  const list = h("ul", { id: "team-pending", className: "rows" });
  const opened = h("div", { id: "team-opened" });
  const line = h("div", { id: "team-list-status", role: "status", "aria-live": "polite" });
  const idInput = h("input", { id: "team-batch-id", placeholder: "link or id", spellcheck: false });
  async function open(text: string): Promise<void> {
    if (!team.gateway || !text) return;
    const named = batchIdOf(text, team.gateway.baseUrl);
    if ("error" in named) return void status(line, "error", named.error);
    const { id } = named;
    try {
      const show = (b: TeamBatch) => setChildren(opened, batchView(team, b, (d) => { show(d); void refresh(); }));
      show(await team.gateway.batch(id));
      // (What the line said before, e.g. that another link was refused, is no longer true.)
      status(line, "", `Batch ${id.slice(0, 8)} is open below.`);
    } catch (error) {
      failed(line, error);
    }
  }
  async function refresh(): Promise<void> {
    if (!team.gateway) return;
    try {
      const pending = await team.gateway.pending();
      status(line, "", pending.length ? `${pending.length} batch${pending.length === 1 ? "" : "es"} waiting for approval.` : "No batch is waiting for approval.");
      setChildren(list, ...pending.map((b) => h("li", {},
        h("button", { type: "button", className: "link", onclick: () => void open(b.id) }, `Open ${b.id.slice(0, 8)}`),
        ` ${b.preparer.name}, ${when(b.preparedAt)}: ${b.totals.map((t) => `${t.count} to ${t.state} ${money(t.amount, t.currency)} ${t.currency}`).join("; ")}`)));
    } catch (error) {
      failed(line, error);
    }
  }
  const element = h("div", { id: "team-approver", hidden: true },
    h("div", { className: "row" }, h("button", { id: "team-refresh", type: "button", onclick: () => void refresh() }, "Show batches waiting for approval")),
    line, list, field("Open a batch by its link or id", idInput), h("div", { className: "row" }, h("button", { id: "team-open", type: "button", onclick: () => void open(idInput.value.trim()) }, "Open")),
    opened);
  return { element, open };
}

/** Opens the batch submitted from this workbook through the signed-in gateway, if it noted one. */
async function openSubmittedHere(ctx: SectionContext, team: TeamState, open: (id: string) => Promise<void>): Promise<void> {
  const id = team.gateway ? await submittedHere(ctx.workbook, team.gateway.baseUrl) : null;
  if (id) await open(id);
}

/** Section 4, "Approval", hidden until someone signs in through a gateway; its parts follow the person's roles. */
export function approvalSection(ctx: SectionContext, team: TeamState, reported: SyncPart["showReport"]): HTMLElement {
  const preparer = teamSubmitPart(ctx, team, reported);
  const { element: approver, open } = approverPart(team);
  const section = h("section", { className: "section", id: "team-approval", "aria-labelledby": "h-team-approval", hidden: true },
    h("h2", { id: "h-team-approval" }, "Approval (team mode)"), preparer, approver);
  team.onSignedIn.push(() => {
    section.hidden = false;
    preparer.hidden = !team.me?.roles.includes("preparer");
    approver.hidden = !team.me?.roles.includes("approver");
    // Sending outside a batch is refused at the gateway: the preparer sends through "Sync approved batch" only.
    const confirm = document.getElementById("confirm-sync");
    if (confirm) confirm.hidden = true;
    if (!approver.hidden) {
      (approver.querySelector("#team-refresh") as HTMLButtonElement).click();
      void openSubmittedHere(ctx, team, open);
    }
  });
  // Back to the person's own key: the section goes, and Confirm and sync (their own sending) comes back.
  team.onSignedOut.push(() => {
    section.hidden = true;
    const confirm = document.getElementById("confirm-sync");
    if (confirm) confirm.hidden = false;
  });
  return section;
}
