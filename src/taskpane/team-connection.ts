/**
 * The Connection section's choice of how this desk reaches the service: single person with an API key (the
 * existing form, unchanged) or team mode through the enterprise's gateway, where the person types only the
 * gateway's address and signs in with their work account (team-sign-in.ts). Team mode keeps no key and no
 * token on this device: only the choice and the gateway's address.
 */
import { TeamGateway, type KeyValueStorage, type Session, type TeamPerson } from "../api";
import { field, h } from "./dom";
import { failed, status } from "./status";
import { signIn } from "./team-sign-in";

const MODE_KEY = "spendsync.mode";
const GATEWAY_KEY = "spendsync.team.gateway";

/** Who is signed in through which gateway, and the batch whose PATCHes the sync is sending (X-Spend-Batch). */
export interface TeamState {
  gateway: TeamGateway | null;
  me: TeamPerson | null;
  sending: string | null;
  /** Run after each sign-in (the approvals section shows what the person's roles allow). */
  onSignedIn: (() => void)[];
  /** Run when the person leaves team mode for their own key (the sync's Confirm comes back). */
  onSignedOut: (() => void)[];
}

const rolesSentence = (me: TeamPerson) => (me.roles.length ? me.roles.join(" and ") : "no role");

/** Signs in through the gateway at `address`; the session's client goes through it with the person's token. */
async function signInAt(session: Session, team: TeamState, address: string): Promise<TeamPerson> {
  const config = await TeamGateway.signInConfig(address);
  const gateway = new TeamGateway(address, await signIn(config));
  const me = await gateway.me();
  session.useTeam((defaults) => gateway.client(config.enterprise_id, () => team.sending, defaults));
  Object.assign(team, { gateway, me });
  return me;
}

/** The team form: the gateway's address, Sign in, and who is signed in with their roles. */
function teamForm(session: Session, team: TeamState, storage: KeyValueStorage, onConnected: () => Promise<void>): HTMLElement {
  const address = h("input", { id: "team-gateway", type: "text", inputMode: "url", value: storage.getItem(GATEWAY_KEY) ?? "", placeholder: "https://gateway.example.com", autocomplete: "url" });
  const who = h("div", { id: "team-status", role: "status", "aria-live": "polite" }, "Not signed in.");
  const button = h("button", { id: "team-sign-in", className: "primary", type: "submit" }, "Sign in");
  async function go(): Promise<void> {
    status(who, "busy", "Signing in…");
    button.disabled = true;
    try {
      const me = await signInAt(session, team, address.value.trim());
      storage.setItem(GATEWAY_KEY, team.gateway!.baseUrl);
      status(who, "ok", `Signed in as ${me.name} (${me.username}): ${rolesSentence(me)}.`);
      for (const listener of team.onSignedIn) listener();
      await onConnected().catch((error: unknown) => failed(who, error));
    } catch (error) {
      failed(who, error);
    } finally {
      button.disabled = false;
    }
  }
  return h("form", { id: "team-connection", onsubmit: (e: Event) => { e.preventDefault(); void go(); } },
    field("Gateway address", address, "Your enterprise's Spend Sync gateway. It holds the service's key: none is kept here."),
    h("div", { className: "row" }, button), who);
}

/**
 * The Connection section with the choice on top: `keyForm` (single person) or the team form, the other hidden.
 * The choice is remembered on this device.
 */
export function connectionChoice(keyForm: HTMLElement, session: Session, team: TeamState, storage: KeyValueStorage, onConnected: () => Promise<void>): HTMLElement {
  const form = teamForm(session, team, storage, onConnected);
  /** Back to the key: the gateway's client is dropped (it would send PATCHes outside any batch), nothing of it kept. */
  const signOut = () => {
    if (!team.gateway) return;
    session.disconnect();
    Object.assign(team, { gateway: null, me: null, sending: null });
    const who = form.querySelector("#team-status");
    if (who) status(who as HTMLElement, "", "Not signed in.");
    const keyStatus = keyForm.querySelector("#connect-status");
    if (keyStatus) status(keyStatus as HTMLElement, "", "Not connected.");
    for (const listener of team.onSignedOut) listener();
  };
  const section = h("div", { className: "section", id: "team-section" }, h("h2", { id: "h-team-connection" }, "1. Connection"), form);
  // (The inputs are kept, not looked up: the taskpane's hosts need only the DOM it builds, no selectors.)
  const inputs: HTMLInputElement[] = [];
  const radio = (value: string, label: string) => {
    const input = h("input", { type: "radio", name: "connection-mode", value, onchange: () => show(value) });
    inputs.push(input);
    return h("label", {}, input, ` ${label}`);
  };
  const choice = h("fieldset", { id: "connection-mode", className: "section choice" }, h("legend", {}, "How this desk connects"),
    radio("key", "Single person (your own key)"), radio("team", "Team (through your gateway)"));
  function show(mode: string): void {
    storage.setItem(MODE_KEY, mode);
    if (mode === "key") signOut();
    keyForm.hidden = mode === "team";
    section.hidden = mode !== "team";
    for (const input of inputs) input.checked = input.value === mode;
  }
  show(storage.getItem(MODE_KEY) === "team" ? "team" : "key");
  return h("div", { id: "connection" }, choice, keyForm, section);
}
