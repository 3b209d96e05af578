/**
 * Ribbon command handlers that may be called before the shared runtime has finished setting up.
 *
 * Office runs a command as soon as the button is pressed, so the handler is registered with
 * Office.actions.associate at the top level of the page, not inside Office.onReady
 * (https://learn.microsoft.com/office/dev/add-ins/develop/create-addin-commands#sample-code-for-function-commands,
 * https://learn.microsoft.com/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime): it then
 * waits for the set-up. It always calls event.completed(), even when the set-up or the work failed: until it
 * does, Office queues every later press of the button ("You must implement event.completed, otherwise your
 * function won't run", same page).
 */
import { SpendSyncError } from "../api";

export type CommandFailure = { stage: "set-up" | "command"; error: unknown };

/**
 * How long a press waits for a set-up that has not finished. "If the Office JavaScript API library files are
 * blocked by network filters, firewalls, or browser extensions, Office.onReady will never resolve"
 * (https://learn.microsoft.com/office/dev/add-ins/develop/initialize-add-in): past this, the press is reported
 * and its event completed, so that Office does not hold every later press of the button behind it.
 * @internal when-ready.test.ts and the ledger's break wait exactly this long on a fake clock.
 */
export const SET_UP_WAIT_MS = 30_000;

/**
 * The set-up did not finish within SET_UP_WAIT_MS.
 * @internal when-ready.test.ts and error-table.test.ts name the class the timeout throws.
 */
export class SetUpTimeoutError extends SpendSyncError {
  override readonly name = "SetUpTimeoutError";
  constructor() {
    super(`Spend Sync has not finished starting after ${SET_UP_WAIT_MS / 1000} s (Office.js may be blocked by a network filter or a browser extension). Close and reopen the add-in, then press the button again.`);
  }
}

/**
 * `work` runs with what the set-up resolved to; `report` tells the user about a failure (it is not awaited:
 * completing the event must not depend on the taskpane showing).
 */
export function whenReady<A>(ready: Promise<A>, work: (app: A) => Promise<void>, report: (failure: CommandFailure) => unknown):
  (event: Office.AddinCommands.Event) => void {
  return (event) => {
    let stage: CommandFailure["stage"] = "set-up";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new SetUpTimeoutError()), SET_UP_WAIT_MS)));
    Promise.race([ready.finally(() => clearTimeout(timer)), late])
      .then((app) => {
        stage = "command";
        return work(app);
      })
      .catch((error: unknown) => {
        try {
          void Promise.resolve(report({ stage, error })).catch(() => undefined);
        } catch {
          // Reporting is best effort; the event completes regardless.
        }
      })
      .finally(() => event.completed());
  };
}
