/**
 * What `npm start` hands the dev server for the workbench's pickers (issue 43): the demo data's enterprises, each
 * with its subsidiaries, cards and their billing periods, by id and name. The service lists no subsidiaries and no
 * billing periods, so on first use there was nothing to pick but UUIDs pasted from the terminal. Built field by
 * field from the sandbox's manifest, so that its API keys never reach the dev server or a page.
 */
import type { SandboxManifest } from "../src/sandbox/server";

interface Named {
  id: string;
  name: string;
}

/** The JSON the dev server answers at /demo-ids.json (src/workbench/demo-ids.ts reads it). */
export interface DemoIds {
  enterprises: { id: string; subsidiaries: Named[]; cards: (Named & { billing_periods: Named[] })[] }[];
}

/** The demo ids and names of `manifest`, without its keys. */
export function demoIds(manifest: SandboxManifest): DemoIds {
  return {
    enterprises: manifest.enterprises.map((e) => {
      const named = (id: string): Named => ({ id, name: e.names[id] ?? "" });
      return {
        id: e.id,
        subsidiaries: e.subsidiaries.map(named),
        cards: e.cards.map((c) => ({ ...named(c.id), billing_periods: c.billing_periods.map(named) })),
      };
    }),
  };
}
