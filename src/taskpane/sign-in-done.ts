/**
 * The page Microsoft's sign-in window comes back to (MSAL's redirect URI, sign-in-done.html): MSAL's own
 * redirect bridge hands the answer in its address to the taskpane that opened the window (a BroadcastChannel
 * of this origin), and the window closes. Nothing else runs here: no Office.js, no taskpane, no storage.
 */
import { broadcastResponseToMainFrame } from "@azure/msal-browser/redirect-bridge";

void broadcastResponseToMainFrame().catch(() => {
  // An address with no sign-in answer (opened by hand): say so instead of a blank window.
  document.body.textContent = "Nothing to finish here: sign in from the Spend Sync taskpane.";
});
