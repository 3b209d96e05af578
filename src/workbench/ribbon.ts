/**
 * The ribbon strip: the add-in's ribbon group (Refresh data, Sync states) above the grid. A button hands
 * its handler an event the way Office does, and stays disabled until the handler calls `completed()`:
 * Office queues presses of a command until then, so a stuck handler shows here as a button that stays grey.
 */
import { h } from "../taskpane/dom";

export interface RibbonCommand {
  id: string;
  label: string;
  title: string;
  /** The same handler the shared runtime registers with Office.actions.associate. */
  handler: (event: Office.AddinCommands.Event) => void;
}

export function mountRibbon(root: HTMLElement, commands: RibbonCommand[]): void {
  const buttons = commands.map((command) => {
    const button = h("button", { type: "button", id: `ribbon-${command.id}`, title: command.title }, command.label);
    button.addEventListener("click", () => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      command.handler({
        source: { id: command.id },
        completed: () => {
          button.disabled = false;
          button.removeAttribute("aria-busy");
        },
      });
    });
    return button;
  });
  root.replaceChildren(h("span", { className: "ribbon-group" }, "Spend Sync"), ...buttons);
}
