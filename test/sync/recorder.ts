/**
 * A recording wrapper around the real transport: every exchange of one client, in order, with the record
 * ids it concerns (a GET's or PATCH's id from its URL; a list's from its answer), so that tests can check
 * what was read before each PATCH, and what came after a PATCH that got no answer.
 */
import type { RawRequest, Transport } from "../../src/api/transport";

export interface Exchange {
  method: "GET" | "PATCH";
  url: string;
  /** Record ids this exchange read or wrote. */
  ids: string[];
  /** A single record (GET or PATCH of one id) or a list. */
  kind: "one" | "list";
  /** Events of this recorder: when it started and ended (-1 while in flight). */
  startSeq: number;
  endSeq: number;
  /** HTTP status, or null when no answer came (dropped, timed out). */
  status: number | null;
  /** Excel syncs seen at the start and at the end (when a counter is given). */
  syncsAtStart: number;
  syncsAtEnd: number;
  /** For a PATCH: the journal's "sending" lines for its record already in the workbook when it left. */
  sendingLinesAtStart: number;
}

const ONE = /\/(?:expenses|allowances)\/([0-9a-f-]{36})\/?(?:\?|$)/;

export class Recorder {
  readonly log: Exchange[] = [];
  private seq = 0;

  /**
   * `sendingLines(id)` counts the journal's "sending" lines for a record as the workbook holds them now
   * (read from the in-memory Excel's model), so that each PATCH can be checked against the write-ahead rule.
   */
  constructor(private readonly syncs: () => number = () => 0, private readonly sendingLines: (id: string) => number = () => 0) {}

  wrap(inner: Transport, gate?: (request: RawRequest) => Promise<void>): Transport {
    return async (request) => {
      const match = ONE.exec(new URL(request.url).pathname + "?");
      const exchange: Exchange = {
        method: request.method, url: request.url, ids: match ? [match[1]] : [], kind: match ? "one" : "list",
        startSeq: this.seq++, endSeq: -1, status: null, syncsAtStart: this.syncs(), syncsAtEnd: -1,
        sendingLinesAtStart: request.method === "PATCH" && match ? this.sendingLines(match[1]) : 0,
      };
      this.log.push(exchange);
      try {
        if (gate) await gate(request);
        const response = await inner(request);
        exchange.status = response.status;
        if (!match && response.status === 200) {
          const body = JSON.parse(response.text) as { results?: { id: string }[] };
          exchange.ids = (body.results ?? []).map((r) => r.id);
        }
        return response;
      } finally {
        exchange.endSeq = this.seq++;
        exchange.syncsAtEnd = this.syncs();
      }
    };
  }

  /**
   * For every PATCH: the exchange about its record just before it was a read that had answered 200, no
   * other exchange of this client answered in between (nothing waited for the network), and no Excel sync
   * happened in between. Returns the PATCHes that break it, with why.
   */
  patchesWithoutFreshRead(): string[] {
    const bad: string[] = [];
    for (const patch of this.log.filter((e) => e.method === "PATCH")) {
      const id = patch.ids[0];
      const before = this.log.filter((e) => e !== patch && e.ids.includes(id) && e.startSeq < patch.startSeq);
      const read = before.at(-1);
      if (!read || read.method !== "GET" || read.status !== 200) {
        bad.push(`${id}: the request before its PATCH was ${read ? `${read.method} ${read.status}` : "none"}`);
        continue;
      }
      const answeredBetween = this.log.filter((e) => e !== read && e.endSeq > read.endSeq && e.endSeq < patch.startSeq);
      if (answeredBetween.length > 0) bad.push(`${id}: ${answeredBetween.length} other answers arrived between its read and its PATCH`);
      if (read.syncsAtEnd !== patch.syncsAtStart) bad.push(`${id}: ${patch.syncsAtStart - read.syncsAtEnd} Excel syncs between its read and its PATCH`);
    }
    return bad;
  }

  /**
   * The write-ahead rule: the k-th PATCH of a record leaves only once k "sending" lines for it are in the
   * workbook's journal. Returns the PATCHes that left ahead of their line.
   */
  patchesAheadOfJournal(): string[] {
    const sent = new Map<string, number>();
    const bad: string[] = [];
    for (const patch of this.log.filter((e) => e.method === "PATCH")) {
      const id = patch.ids[0];
      const k = (sent.get(id) ?? 0) + 1;
      sent.set(id, k);
      if (patch.sendingLinesAtStart < k) bad.push(`${id}: PATCH #${k} left with ${patch.sendingLinesAtStart} "sending" lines in the journal`);
    }
    return bad;
  }

  /** PATCHes that got no answer (or a 5xx). */
  unanswered(): Exchange[] {
    return this.log.filter((e) => e.method === "PATCH" && (e.status === null || e.status >= 500));
  }

  /** For every PATCH that got no answer (or a 5xx): the next exchange about its record is a read. */
  resentWithoutRead(): string[] {
    const bad: string[] = [];
    for (const patch of this.unanswered()) {
      const id = patch.ids[0];
      const next = this.log.find((e) => e.startSeq > patch.startSeq && e.ids.includes(id));
      if (next && next.method !== "GET") bad.push(`${id}: ${next.method} after an unanswered PATCH, without reading first`);
    }
    return bad;
  }
}
