/**
 * One request's access-log entries, the same on both paths (app.ts, node-fast.ts): exactly one when its answer's
 * head is decided, refusals included, and one more for each time the gateway cuts the answer after its head went
 * out. The redactor is built from this request's Authorization header and the gateway's own keys, and lives only
 * as long as the request.
 */
import { loggedPath, scrubbedEntry, type AccessLogEntry } from "./access-log";
import type { ResolvedConfig } from "./config";
import { redactorFor, requestSecrets } from "./redact";
import type { RequestHead } from "./request-head";

export class RequestLog {
  readonly redact: (text: string) => string;
  private readonly started: number;
  /** An event noted before the entry was written: it goes into the entry. */
  private event: string | undefined;
  private logged: AccessLogEntry | null = null;

  constructor(private readonly settings: Pick<ResolvedConfig, "log" | "now" | "knownKeys">, authorization: string | null) {
    this.redact = redactorFor(requestSecrets(authorization, settings.knownKeys));
    this.started = settings.now();
  }

  /** Why the gateway itself ended the exchange ("answer idle", …): in the entry, or its own entry once that is written. */
  note(event: string): void {
    if (this.logged) this.write({ ...this.logged, ms: this.elapsed(), event });
    else this.event = event;
  }

  /** The answer's head is decided: its entry. */
  answered(head: RequestHead, status: number): void {
    const origin = head.header("origin");
    this.logged = {
      time: new Date(this.started).toISOString(),
      method: head.method,
      path: loggedPath(head.url, this.redact),
      status,
      ms: this.elapsed(),
      ...(origin === null ? {} : { origin }),
    };
    this.write(this.event === undefined ? this.logged : { ...this.logged, event: this.event });
  }

  private elapsed(): number {
    return Math.max(0, Math.round(this.settings.now() - this.started));
  }

  private write(entry: AccessLogEntry): void {
    this.settings.log(scrubbedEntry(entry, this.redact));
  }
}
