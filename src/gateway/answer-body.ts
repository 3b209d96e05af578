/**
 * The service's success body, relayed as it streams, but never longer than the limits: a pause longer than
 * the idle timeout, or an answer still running at the answer deadline (a byte a second never pauses), cuts it.
 * Its first chunk is awaited before the answer's head goes out, so that a service that sends a head and then
 * nothing gets the caller a 504 instead of a 200 that never ends; after that, a cut can only close the
 * connection (the head is gone), and is logged.
 */
import type { Timer } from "./timeout";

export type Cut = "answer idle" | "answer timeout";

export interface AnswerLimits {
  timer: Timer;
  idleMs: number;
  /** Resolves when the whole answer's time is up (set when the request went upstream). */
  deadline: Promise<"answer timeout">;
  /** Rewrites a chunk on its way (the list links); `end` gives what it still holds. */
  transform?: { push(chunk: Uint8Array): Uint8Array; end(): Uint8Array };
  /** Told when the body is cut after its head went out. */
  onCut(cut: Cut): void;
  /** Told once the body has ended, however it ended (the deadline's timer can go). */
  onEnd(): void;
}

type Next = ReadableStreamReadResult<Uint8Array> | Cut | "broken";

export async function relayBody(body: ReadableStream<Uint8Array>, limits: AnswerLimits): Promise<{ ok: true; body: ReadableStream<Uint8Array> } | { ok: false; reason: Cut | "broken" }> {
  const reader = body.getReader();
  const next = (): Promise<Next> => new Promise((resolve) => {
    const idle = limits.timer.set(() => resolve("answer idle"), limits.idleMs);
    const settle = (value: Next) => {
      limits.timer.clear(idle);
      resolve(value);
    };
    reader.read().then(settle, () => settle("broken"));
    void limits.deadline.then(settle);
  });
  // Not awaited: a stalled source may never settle its cancel.
  const stop = () => void reader.cancel().catch(() => undefined);
  const first = await next();
  if (typeof first === "string") {
    stop();
    limits.onEnd();
    return { ok: false, reason: first };
  }
  const out = (chunk: Uint8Array) => limits.transform?.push(chunk) ?? chunk;
  // (Once the stream is closed, errored or cancelled, it calls neither pull nor cancel again; a pull still
  // waiting when the caller cancels reads the end of the cancelled source, and what it does then goes nowhere.)
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const rest = limits.transform?.end();
    if (rest?.byteLength) controller.enqueue(rest);
    controller.close();
    limits.onEnd();
  };
  return {
    ok: true,
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        if (first.done) finish(controller);
        else {
          const chunk = out(first.value);
          if (chunk.byteLength) controller.enqueue(chunk);
        }
      },
      async pull(controller) {
        // Until something is given out: a chunk may go wholly into a link being rewritten, and a pull that
        // enqueues nothing would not be called again.
        for (;;) {
          const got = await next();
          if (typeof got === "string") {
            stop();
            if (got !== "broken") limits.onCut(got);
            limits.onEnd();
            controller.error(new Error(got));
            return;
          }
          if (got.done) return finish(controller);
          const chunk = out(got.value);
          if (chunk.byteLength) return controller.enqueue(chunk);
        }
      },
      cancel() {
        stop();
        limits.onEnd();
      },
    }),
  };
}
