/** UTF-8 sizes, measured as Excel measures a request: the bytes of its JSON text. */
const encoder = new TextEncoder();
const SLICE = 1 << 16;
/** Room for any slice: a UTF-16 unit never takes more than 3 bytes. */
const scratch = new Uint8Array(SLICE * 3);

/**
 * The UTF-8 size of `text`, as TextEncoder encodes it (a lone surrogate becomes U+FFFD, 3 bytes), without
 * allocating its bytes: a chunk of a load is megabytes of JSON. Encoded a slice at a time into one scratch
 * buffer; a slice never ends between the two halves of a surrogate pair.
 */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + SLICE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    bytes += encoder.encodeInto(start === 0 && end === text.length ? text : text.slice(start, end), scratch).written;
    start = end;
  }
  return bytes;
}
