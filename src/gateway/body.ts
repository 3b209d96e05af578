/**
 * Reads a body under a cap, counting bytes as they arrive: a declared Content-Length over the cap is refused
 * before a byte is read, and a body without one (chunked) is cut off as soon as it passes the cap. With an
 * idle limit, a body that stops arriving for that long is given up too (its stream cancelled), so a caller
 * sending a byte now and then, or nothing at all, holds the gateway no longer than that.
 * Request bodies are buffered (at most the cap) rather than streamed upstream: a streamed request body needs
 * `duplex: "half"`, which not every platform's fetch takes, and the service's bodies are small PATCHes.
 */
import type { Timer } from "./timeout";

export type CappedBody =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> | undefined }
  /** too-large: over the cap; idle: nothing arrived for the idle limit; broken: the stream failed (the peer left). */
  | { ok: false; reason: "too-large" | "idle" | "broken" };

export interface IdleLimit {
  timer: Timer;
  ms: number;
}

/** One read, or "idle" when nothing comes within the limit. */
function readWithin<T>(read: Promise<T>, idle: IdleLimit): Promise<T | "idle"> {
  return new Promise((resolve, reject) => {
    const handle = idle.timer.set(() => resolve("idle"), idle.ms);
    read.then((value) => {
      idle.timer.clear(handle);
      resolve(value);
    }, (error: unknown) => {
      idle.timer.clear(handle);
      reject(error);
    });
  });
}

export async function readCapped(stream: ReadableStream<Uint8Array> | null, declaredLength: string | null, max: number, idle: IdleLimit): Promise<CappedBody> {
  if (Number(declaredLength) > max) { // (none declared: Number(null) is 0)
    await stream?.cancel().catch(() => undefined);
    return { ok: false, reason: "too-large" };
  }
  if (stream === null) return { ok: true, bytes: undefined };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array> | "idle";
    try {
      next = await readWithin(reader.read(), idle);
    } catch {
      return { ok: false, reason: "broken" };
    }
    if (next === "idle") {
      // Not awaited: a stalled source may never settle its cancel.
      reader.cancel().catch(() => undefined);
      return { ok: false, reason: "idle" };
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: "too-large" };
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}
