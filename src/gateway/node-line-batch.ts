/**
 * The CLI's access log, written once per turn of the event loop rather than once per request (issue 49: on a
 * pipe, stdout and stderr are written synchronously, a system call and a wake-up of the reader for each line,
 * ~10% of the gateway's time under 200 connections; a blocked reader stalled every request). Lines keep their
 * order, and none waits longer than the turn it was logged in: the ones logged while a request is being answered
 * are out before the next bytes from any socket are read.
 */

/** Above this many characters waiting, they are written at once (a turn that logs a burst). */
const MAX_WAITING_CHARS = 64 * 1024;

export interface LineBatch {
  /** Queues `text` (one or more whole lines) for this turn's write. */
  write(text: string): void;
  /** Writes what is waiting now (before the process exits). */
  flush(): void;
}

/** Lines through `out`, those of one event-loop turn in one call. */
export function lineBatch(out: (text: string) => void): LineBatch {
  let waiting = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (waiting === "") return;
    const text = waiting;
    waiting = "";
    out(text);
  };
  return {
    write(text) {
      waiting += text;
      if (waiting.length >= MAX_WAITING_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        // (After the turn's I/O callbacks, before the next turn's: see the file's comment.)
        setImmediate(flush);
      }
    },
    flush,
  };
}
