/**
 * The taskpane's Connection section: base URL, enterprise id and API key, tested by listing one card, then
 * saved on this device by the Session (the key never goes into the workbook).
 */
import { listCards, type Connection, type Session, type SpendClient } from "../api";
import { field, h } from "./dom";
import { failed, status } from "./status";

/**
 * The connect form. `defaults` pre-fill the fields when nothing is saved (the workbench's demo); `onConnected`
 * runs once a connection works and is saved (the Load section's suggestions): a failure of it is shown, and the
 * tested connection stays saved. A connection whose test fails replaces nothing (Session.connectTested).
 */
export function connectionSection(session: Session, defaults: { baseUrl?: string; enterpriseId?: string } | undefined, onConnected: () => Promise<void>): HTMLElement {
  const saved = session.connection();
  // type="text": a browser's own check of type="url" refuses "api.example.com" in its words before ours can say what is missing.
  const baseUrl = h("input", { id: "base-url", type: "text", inputMode: "url", value: saved?.baseUrl ?? defaults?.baseUrl ?? "", placeholder: "https://api.example.com", autocomplete: "url" });
  const enterprise = h("input", { id: "enterprise-id", value: saved?.enterpriseId ?? defaults?.enterpriseId ?? "", placeholder: "enterprise UUID", spellcheck: false });
  const apiKey = h("input", { id: "api-key", type: "password", value: "", placeholder: saved ? "saved on this device" : "your API key", autocomplete: "off" });
  const connectStatus = h("div", { id: "connect-status", role: "status", "aria-live": "polite", className: saved ? "ok" : "" }, saved ? `Connected to enterprise ${saved.enterpriseId} (key saved on this device).` : "Not connected.");
  const connectButton = h("button", { id: "connect", className: "primary", type: "submit" }, "Test and save connection");

  async function connect(): Promise<void> {
    const working = session.connection();
    status(connectStatus, "busy", "Testing the connection…");
    connectButton.disabled = true;
    try {
      const typedUrl = baseUrl.value.trim();
      const key = apiKey.value.trim() || (working && sameOrigin(typedUrl, working.baseUrl) ? working.apiKey : "");
      if (!key && working) {
        // The saved key goes only where it was saved: a typo in the address must not hand it to another host.
        status(connectStatus, "error", `Type the API key to test ${typedUrl || "this address"}: the saved key is sent only to ${originOf(working.baseUrl)}, where it was saved. ${keptSentence(working)}`);
        return;
      }
      const typed = { baseUrl: typedUrl, enterpriseId: enterprise.value.trim(), apiKey: key };
      let tested: { client: SpendClient; cards: number };
      try {
        tested = await testConnection(session, typed);
      } catch (error) {
        // The connection that worked stays saved and in use: say so, or a person reads "not connected" into it.
        failed(connectStatus, error, working ? keptSentence(working) : "");
        return;
      }
      apiKey.value = "";
      apiKey.placeholder = "saved on this device";
      status(connectStatus, "ok", `Connected to enterprise ${tested.client.enterpriseId}: ${tested.cards} corporate cards visible. The key is saved on this device only.`);
      await onConnected().catch((error: unknown) => failed(connectStatus, error));
    } finally {
      connectButton.disabled = false;
    }
  }

  return h("form", { className: "section", "aria-labelledby": "h-connection", onsubmit: (e: Event) => { e.preventDefault(); void connect(); } },
    h("h2", { id: "h-connection" }, "1. Connection"),
    field("Base URL", baseUrl), field("Enterprise ID", enterprise), field("API key", apiKey, "Stored on this device only, never in the workbook."),
    h("div", { className: "row" }, connectButton), connectStatus);
}

/** Tested by listing one card: a connection is saved only when the service answered it. */
async function testConnection(session: Session, connection: Connection): Promise<{ client: SpendClient; cards: number }> {
  const { client, tested } = await session.connectTested(connection, async (candidate) => (await listCards(candidate, {}, { pageSize: 1 }).pages().next()).value?.count ?? 0);
  return { client, cards: tested };
}

/** What a failed test leaves in use. */
function keptSentence(working: Connection): string {
  return `Nothing was changed: the connection that worked is kept (enterprise ${working.enterpriseId} at ${working.baseUrl}), and Spend Sync's formulas go on using it.`;
}

/** A URL's origin, or the text itself where it is no URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** True when `typed` names the same scheme, host and port as `saved`. */
const sameOrigin = (typed: string, saved: string) => originOf(typed) === originOf(saved);
