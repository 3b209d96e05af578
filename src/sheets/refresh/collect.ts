/**
 * Refresh's first step, whichever way it writes: every page of the query, each record rendered as it
 * arrives (the records dropped at once), with its tracked values and the fingerprints of its other cells.
 */
import { CancelledError, type Page } from "../../api";
import type { Load } from "../load/context";
import { inPageOrder, recordRenderer } from "../render";
import { rowHashes } from "../edits/row-hashes";
import type { ReadOnly, Snapshot } from "../edits/snapshot";
import type { CellValue } from "../port/workbook";

export interface Collected {
  /** Rendered rows in layout order, by id, in the server's order. */
  incoming: Map<string, CellValue[]>;
  /** The fingerprints of each record's hashed cells (row-hashes.ts), by id. */
  hashes: Map<string, string>;
  /** The tracked values the server holds now (tracked resources). */
  fresh: Snapshot;
  /** Records that did not match the API: why they may not be synced. */
  readOnly: ReadOnly;
  count: number;
  malformed: number;
}

export async function collect(load: Load, pages: AsyncGenerator<Page<{ id: string }>>): Promise<Collected> {
  const render = recordRenderer(load.query);
  const out: Collected = { incoming: new Map(), hashes: new Map(), fresh: new Map(), readOnly: new Map(), count: 0, malformed: 0 };
  for await (const page of pages) {
    for (const record of inPageOrder(page)) {
      const row = render(record, out.fresh, out.readOnly);
      out.incoming.set(record.id, row);
      out.hashes.set(record.id, rowHashes(row, load.hashed));
    }
    out.count += page.results.length + page.malformed.length;
    out.malformed += page.malformed.length;
  }
  if (load.options.signal?.aborted) throw new CancelledError("Cancelled.");
  return out;
}
