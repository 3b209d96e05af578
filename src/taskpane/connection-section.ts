/**
 * The taskpane's Connection section: base URL, enterprise id and API key, tested by listing one card, then
 * saved on this device by the Session (the key never goes into the workbook).
 */
import { listCards, type Session } from "../api";
import { field, h } from "./dom";
import { explain } from "./messages";
import { status } from "./status";

/**
 * The connect form. `defaults` pre-fill the fields when nothing is saved (the workbench's demo); `onConnected`
 * runs once a connection works (the Load section's suggestions), and a failure of it counts as a failed connect.
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
    const key = apiKey.value.trim() || session.connection()?.apiKey || "";
    status(connectStatus, "busy", "Testing the connection…");
    connectButton.disabled = true;
    try {
      const client = session.connect({ baseUrl: baseUrl.value.trim(), enterpriseId: enterprise.value.trim(), apiKey: key });
      const first = await listCards(client, {}, { pageSize: 1 }).pages().next();
      apiKey.value = "";
      apiKey.placeholder = "saved on this device";
      status(connectStatus, "ok", `Connected to enterprise ${client.enterpriseId}: ${first.value?.count ?? 0} corporate cards visible. The key is saved on this device only.`);
      await onConnected();
    } catch (error) {
      session.disconnect();
      status(connectStatus, "error", explain(error));
    } finally {
      connectButton.disabled = false;
    }
  }

  return h("form", { className: "section", "aria-labelledby": "h-connection", onsubmit: (e: Event) => { e.preventDefault(); void connect(); } },
    h("h2", { id: "h-connection" }, "1. Connection"),
    field("Base URL", baseUrl), field("Enterprise ID", enterprise), field("API key", apiKey, "Stored on this device only, never in the workbook."),
    h("div", { className: "row" }, connectButton), connectStatus);
}
