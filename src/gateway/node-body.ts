/**
 * The Node fast path's request body, read as body.ts reads the fetch handler's: counted as it arrives and
 * given up past the cap (413), after the idle timeout without a byte (408), or when the caller goes (408).
 */
import type { IncomingMessage } from "node:http";
import type { BodyFailure } from "./forward-answers";
import type { Timer } from "./timeout";

export type NodeBody = { ok: true; bytes: Buffer | undefined } | { ok: false; reason: BodyFailure };

export function readNodeBody(req: IncomingMessage, max: number, idle: { timer: Timer; ms: number }): Promise<NodeBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: unknown;
    const arm = () => {
      idle.timer.clear(timer);
      timer = idle.timer.set(() => settle({ ok: false, reason: "idle" }), idle.ms);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return settle({ ok: false, reason: "too-large" });
      chunks.push(chunk);
      arm();
    };
    const onEnd = () => settle({ ok: true, bytes: size === 0 ? undefined : Buffer.concat(chunks, size) });
    const onBroken = () => settle({ ok: false, reason: "broken" });
    function settle(body: NodeBody) {
      idle.timer.clear(timer);
      req.off("data", onData).off("end", onEnd).off("aborted", onBroken).off("error", onBroken).off("close", onClose);
      // What is left of a refused body is not read: the caller's connection closes (Connection: close).
      if (!body.ok) req.pause();
      resolve(body);
    }
    function onClose() {
      if (!req.complete) onBroken();
    }
    if (req.complete && req.readableEnded) return resolve({ ok: true, bytes: undefined });
    req.on("data", onData).on("end", onEnd).on("aborted", onBroken).on("error", onBroken).on("close", onClose);
    arm();
  });
}

/** As @hono/node-server does after answering: what the caller still sends of its body, read and dropped (bounded). */
const DRAIN_MS = 500;
const DRAIN_BYTES = 64 * 1024 * 1024;

/** Reads and drops what is left of a request body the answer did not need; a caller that keeps sending is closed. */
export function drainRest(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  let read = 0;
  const close = () => {
    cleanup();
    req.socket.destroySoon();
  };
  const timer = setTimeout(close, DRAIN_MS);
  timer.unref();
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_BYTES) close();
  };
  function cleanup() {
    clearTimeout(timer);
    req.off("data", onData).off("end", cleanup).off("error", cleanup);
  }
  req.on("data", onData).on("end", cleanup).on("error", cleanup);
  req.resume();
}
