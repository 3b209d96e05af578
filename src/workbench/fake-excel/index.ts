/**
 * The in-memory Excel: a workbook (model.ts), Excel's rules for what a request does to it (typing.ts,
 * protocol/), and a person at the keyboard (user-actions.ts). The add-in reaches it exactly as it reaches
 * Excel: through Microsoft's own Office.js client (`Excel.run`), whose requests this Excel answers as a host
 * of the wire protocol. Tests and the workbench page use the same object.
 */
import { officeJs } from "../office-js/library";
import { sendEvents, useEventBridge } from "../office-js/event-bridge";
import { connect, type ProtocolEndpoint } from "../office-js/transport";
import { ExcelProtocolHost, PAYLOAD_LIMIT_BYTES } from "./protocol/host";
import type { HostStats, RequestRecord } from "./protocol/host-stats";
import { WorkbookModel, type CellLine, type Scalar, type SheetModel } from "./model";
import { CELL_TEXT_LIMIT } from "./typing";
import { UserActions } from "./user-actions";

export { CELL_TEXT_LIMIT, ExcelProtocolHost, PAYLOAD_LIMIT_BYTES, UserActions, WorkbookModel };
export type { CellLine, HostStats, RequestRecord, Scalar, SheetModel };

export interface FakeExcelOptions {
  /** What a round trip to Excel costs (benchmarks). */
  latencyMs?: number;
  /**
   * What answers the requests, given this workbook's own host: the host itself by default; a wrapper of it (a
   * test that holds or refuses requests on the wire); or another endpoint (an Excel in a worker thread, whose
   * workbook and counts are then its own, not `model` and `stats` here).
   */
  endpoint?: (host: ExcelProtocolHost) => ProtocolEndpoint;
}

export class FakeExcel {
  readonly host: ExcelProtocolHost;
  readonly user: UserActions;
  /** Every Excel.run's options, in order, as the add-in gave them (tests check that each waits for cell edit). */
  readonly runs: Excel.RunOptions[] = [];
  /** Where Microsoft's client sends this workbook's requests. */
  readonly url: string;

  constructor(readonly model: WorkbookModel = new WorkbookModel(), options: FakeExcelOptions = {}) {
    this.host = new ExcelProtocolHost(model, { latencyMs: options.latencyMs });
    this.user = new UserActions(model);
    this.url = connect(options.endpoint?.(this.host) ?? this.host);
    // Its change events reach Microsoft's client through the client's host bridge (office-js/event-bridge.ts).
    useEventBridge();
    this.host.events.sink = sendEvents;
  }

  /**
   * Makes this workbook the one Office.js reaches when no session is named: `Excel.run(batch)` exactly as the
   * add-in calls it in Excel (the library's default request URL, which it reads when a RequestContext is
   * made without one). For a page that runs the production bundle unchanged (test/gateway/office-stub.ts).
   */
  serveDefaultRequests(): void {
    officeJs().OfficeExtension.ClientRequestContext.defaultRequestUrlAndHeaders = { url: this.url, headers: {} };
  }

  get stats(): HostStats {
    return this.host.stats;
  }

  /**
   * Excel.run, Microsoft's, against this workbook: the batch gets a real Excel.RequestContext whose requests
   * come here (the options' `session`, which Excel.RunOptions documents as the remote workbook's URL).
   */
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
  run<T>(options: Excel.RunOptions, batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
  run<T>(first: Excel.RunOptions | ((context: Excel.RequestContext) => Promise<T>), second?: (context: Excel.RequestContext) => Promise<T>): Promise<T> {
    const options = typeof first === "function" ? {} : first;
    const batch = typeof first === "function" ? first : second!;
    this.runs.push(options);
    return officeJs().Excel.run({ ...options, session: { url: this.url, headers: {} } }, batch);
  }

  get largestRequestBytes(): number {
    return Math.max(0, ...this.stats.requestBytes);
  }

  get largestResponseBytes(): number {
    return Math.max(0, ...this.stats.responseBytes);
  }

  resetStats(): void {
    this.stats.reset();
  }
}

