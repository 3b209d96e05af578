/**
 * The device storage the Session keeps the connection in, made safe for Office's webviews:
 * - Keys are prefixed with Office.context.partitionKey when Office defines one, so that the data is only
 *   available in the same context (Excel on the web: one partition per top-level domain and add-in domain):
 *   https://learn.microsoft.com/office/dev/add-ins/develop/persisting-add-in-state-and-settings#storage-partitioning
 *   (the key is undefined where there is no partitioning, such as the webviews of Office on Windows).
 * - "Some browsers or the user's browser settings may block browser-based storage techniques. You should test for
 *   availability": https://learn.microsoft.com/office/dev/add-ins/develop/persisting-add-in-state-and-settings#browser-storage
 *   Blocked third-party storage and privacy modes throw a SecurityError on access, even on reading the
 *   `localStorage` property itself (https://html.spec.whatwg.org/multipage/webstorage.html#dom-localstorage).
 *   Then the storage reports `blocked`, keeps values in memory until Excel closes, and never throws, so the
 *   Session reads "no connection" and the custom functions answer "not connected".
 * Lives beside the layers (like requirements.ts): the shared runtime and the custom functions both use it.
 */
import { memoryStorage, type KeyValueStorage } from "./api";

export interface GuardedStorage extends KeyValueStorage {
  /** The name of the error that blocked the storage (e.g. "SecurityError"), or null while it works. */
  readonly blocked: string | null;
}

export interface GuardOptions {
  /** Office.context.partitionKey; undefined or "" where Office does not partition storage. */
  partitionKey?: string;
  /** Told once, when the storage first throws. */
  onBlocked?: (reason: string) => void;
}

/** Wraps `open()` (e.g. `() => localStorage`), which may itself throw. */
export function guardedStorage(open: () => KeyValueStorage, options: GuardOptions = {}): GuardedStorage {
  const prefix = options.partitionKey || "";
  const memory = memoryStorage();
  let blocked: string | null = null;
  let storage: KeyValueStorage | null = null;

  function attempt<T>(work: (s: KeyValueStorage) => T, fallback: () => T): T {
    if (blocked === null) {
      try {
        storage ??= open();
        return work(storage);
      } catch (error) {
        blocked = (error as Error)?.name || "Error";
        options.onBlocked?.(blocked);
      }
    }
    return fallback();
  }

  return {
    get blocked() {
      return blocked;
    },
    getItem: (key) => attempt((s) => s.getItem(prefix + key), () => memory.getItem(key)),
    setItem: (key, value) => attempt((s) => s.setItem(prefix + key, value), () => memory.setItem(key, value)),
    removeItem: (key) => attempt((s) => s.removeItem(prefix + key), () => memory.removeItem(key)),
  };
}

/** The taskpane's sentence for a blocked storage. */
export function storageBlockedMessage(reason: string): string {
  return `This Excel blocks the add-in's storage (${reason}: third-party storage is off or a privacy mode is on), so the key can't be remembered: enter it again each time Excel starts Spend Sync.`;
}

/** Office.context.partitionKey when Office.js has one, else undefined (tests, the workbench, Office on Windows). */
export function officePartitionKey(): string | undefined {
  try {
    return typeof Office === "undefined" ? undefined : Office.context?.partitionKey || undefined;
  } catch {
    return undefined;
  }
}
