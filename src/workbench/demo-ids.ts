/**
 * The sandbox's demo subsidiaries, cards and billing periods by name, for the taskpane's pickers on first use
 * (issue 43): the dev server answers them at /demo-ids.json from what npm start read in the sandbox's manifest
 * (tools/demo-ids.ts, webpack.config.js; never a key). A page served without them (a 404, a browser-test build)
 * offers none. Development only: this file is the workbench's, which no production build holds.
 */
import { z } from "zod";
import type { OfferedIds } from "../taskpane/offered-ids";

const Named = z.object({ id: z.string(), name: z.string() });
const DemoIds = z.object({
  enterprises: z.array(z.object({ id: z.string(), subsidiaries: z.array(Named), cards: z.array(Named.extend({ billing_periods: z.array(Named) })) })),
});

/** What the pickers show beside each of these ids. */
const DEMO_SOURCE = "demo data";

/** The demo ids the dev server answers beside the page, or null when it has none (or answers something else). */
export async function demoIds(fetchJson: typeof fetch = fetch): Promise<OfferedIds | null> {
  try {
    const answer = await fetchJson("demo-ids.json", { cache: "no-store" });
    if (!answer.ok) return null;
    const parsed = DemoIds.safeParse(await answer.json());
    return parsed.success ? { source: DEMO_SOURCE, enterprises: parsed.data.enterprises } : null;
  } catch {
    return null;
  }
}
