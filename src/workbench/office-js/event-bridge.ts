/**
 * How the in-memory Excel's change events reach Microsoft's client: through the client's own host bridge
 * (`OfficeExtension.HostBridge`), the channel a native Office host gives Office.js as `_richApiNativeBridge`: an
 * object with `sendMessageToHost(text)` whose `onMessageFromHost(text)` the library sets and the host calls. The
 * library parses each message (type 3: RichApi event messages, each entry `[category, type, target id, JSON
 * arguments, id]`) and its `HostBridgeSession` hands them to `GenericEventRegistration`, which calls the handlers an
 * add-in added (`table.onChanged.add`), through the library's own argument transforms (`TableChangedEventArgs`).
 * Nothing of Office.js's event handling is imitated here: this is the host's end of Microsoft's channel.
 *
 * The workbooks' requests keep going by their session URLs (transport.ts): the bridge carries only events. A
 * request the library would send through the bridge (a context made for the "local document", which no caller
 * here makes) is answered 404, as transport.ts answers a URL no workbook has.
 */
import { OfficeJsMissingError, officeJs } from "./library";

/** The host's end of the bridge, as the library reads it (`_richApiNativeBridge`). */
interface NativeBridge {
  sendMessageToHost(text: string): void;
  /** Set by the library when it takes the bridge (HostBridge's constructor). */
  onMessageFromHost?: (text: string) => void;
}

/** The library's internals this file calls: the bridge's set-up, exactly as the library calls it for `_richApiNativeBridge`. */
interface HostBridgeInternals {
  HostBridge: { init(bridge: NativeBridge): void; instance?: unknown };
  /** Made by the library for the first request context of the local document; it subscribes the event registrations to the bridge. */
  HostBridgeSession: { getInstanceIfHostBridgeInited(): unknown };
}

/** One RichApi event entry: [category, event type, target id, arguments as JSON, id]. */
export type BridgeEventEntry = [number, number, string, string, number];

let bridge: NativeBridge | null = null;

/**
 * The library's host-bridge members, found and checked: they are internal to Office.js (no @types/office-js entry),
 * so they are looked up by name and refused with a clear error if a version of the library lacks them.
 */
function hostBridgeInternals(): HostBridgeInternals {
  const extension = officeJs().OfficeExtension;
  const HostBridge: HostBridgeInternals["HostBridge"] | undefined = Reflect.get(extension, "HostBridge");
  const HostBridgeSession: HostBridgeInternals["HostBridgeSession"] | undefined = Reflect.get(extension, "HostBridgeSession");
  if (typeof HostBridge?.init !== "function" || typeof HostBridgeSession?.getInstanceIfHostBridgeInited !== "function") {
    throw new OfficeJsMissingError("This Office.js client has no host bridge (OfficeExtension.HostBridge, HostBridgeSession): the in-memory Excel cannot deliver change events through it.");
  }
  return { HostBridge, HostBridgeSession };
}

function install(): NativeBridge {
  const extension = hostBridgeInternals();
  const made: NativeBridge = {
    sendMessageToHost(text) {
      const message = JSON.parse(text) as { id?: number; type?: number };
      if (message.type !== 1 || typeof message.id !== "number") return;
      const answer = { id: message.id, type: 2, message: { statusCode: 404, headers: {}, body: JSON.stringify({ error: { code: "ItemNotFound", message: "No in-memory Excel serves the local document: name the workbook's session." } }) } };
      queueMicrotask(() => made.onMessageFromHost?.(JSON.stringify(answer)));
    },
  };
  extension.HostBridge.init(made);
  // What the library does for a local-document context: its session subscribes the event registrations to the bridge.
  extension.HostBridgeSession.getInstanceIfHostBridgeInited();
  return made;
}

/** Sends RichApi event entries to Microsoft's client, as an Office host does (installs the bridge once). */
export function sendEvents(entries: BridgeEventEntry[]): void {
  bridge ??= install();
  bridge.onMessageFromHost?.(JSON.stringify({ type: 3, message: { entries } }));
}

/** Installs the bridge now: Office.js's event registration waits for a host channel (GenericEventRegistration.ready). */
export function useEventBridge(): void {
  bridge ??= install();
}
