/**
 * Reads a body under a cap, counting bytes as they arrive: a declared Content-Length over the cap is refused
 * before a byte is read, and a body without one (chunked) is cut off as soon as it passes the cap.
 * Request bodies are buffered (at most the cap) rather than streamed upstream: a streamed request body needs
 * `duplex: "half"`, which not every platform's fetch takes, and the service's bodies are small PATCHes.
 */

export type CappedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> | undefined } | { ok: false };

export async function readCapped(stream: ReadableStream<Uint8Array> | null, declaredLength: string | null, max: number): Promise<CappedBody> {
  if (declaredLength !== null && Number(declaredLength) > max) {
    await stream?.cancel().catch(() => undefined);
    return { ok: false };
  }
  if (stream === null) return { ok: true, bytes: undefined };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}
