/** The in-memory Excel counts request and response sizes in UTF-8 bytes without encoding them: same count as TextEncoder. */
import { Random } from "../../src/sandbox/random";
import { utf8Bytes } from "../../src/workbench/fake-excel/bytes";

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe("utf8Bytes", () => {
  it.each([
    ["", 0],
    ["plain ascii", 11],
    ["é", 2], // U+00E9: two bytes
    ["߿", 2], // U+07FF: the last two-byte code point
    ["ࠀ", 3], // U+0800: the first three-byte one
    ["€", 3],
    ["😀", 4], // a surrogate pair
    ["\ud83d", 3], // a lone high surrogate becomes U+FFFD
    ["\ude00", 3], // a lone low surrogate too
    ["\ude00\ud83d", 6], // a pair in the wrong order is two lone surrogates
    ["a\ud83d", 4], // a high surrogate at the end
  ])("%j is %i bytes, as TextEncoder counts", (text, bytes) => {
    expect(utf8Bytes(text)).toBe(bytes);
    expect(encoded(text)).toBe(bytes);
  });

  it("agrees with TextEncoder on random text from every plane, lone surrogates included", () => {
    const random = new Random(7, "utf8");
    const next = () => random.int(0, 2 ** 31 - 1);
    const ranges = [0x7f, 0x7ff, 0xd7ff, 0xdfff, 0xffff];
    for (let n = 0; n < 2000; n++) {
      let text = "";
      const length = next() % 40;
      for (let i = 0; i < length; i++) {
        const top = ranges[next() % ranges.length];
        text += next() % 10 === 0 ? String.fromCodePoint(0x10000 + (next() % 0xfffff)) : String.fromCharCode(next() % (top + 1));
      }
      expect(utf8Bytes(text)).toBe(encoded(text));
    }
  });
});

describe("utf8Bytes on texts longer than its scratch slice", () => {
  it("counts a pair that straddles a slice boundary as 4 bytes, wherever it falls", () => {
    for (const at of [65534, 65535, 65536, 131071]) {
      const text = "a".repeat(at) + "😀" + "é".repeat(70000);
      expect(utf8Bytes(text)).toBe(encoded(text));
      expect(utf8Bytes(text)).toBe(at + 4 + 140000);
    }
  });

  it("counts a lone high surrogate at a slice boundary as 3 bytes", () => {
    const text = "a".repeat(65535) + "\ud83d" + "b".repeat(10);
    expect(utf8Bytes(text)).toBe(encoded(text));
  });
});
