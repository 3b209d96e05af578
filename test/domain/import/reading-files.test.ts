/**
 * Reading the files people export: UTF-8 with or without BOM, Windows-1252, `;` with decimal commas, thousands
 * separators, dates in the file's locale (asked when the file cannot say; 03/04 is never guessed), read in chunks
 * of any size with progress. A file that cannot be read is refused whole with a sentence saying what to do.
 */
import {
  CsvReader, ImportFileError, decideDateOrder, decideDecimalMark, detectEncoding, guessColumns, parseCsv, readAmount, readDate,
  readImportFile, sniffShape, toMinor, type FileMapping,
} from "../../../src/domain/import";
import { chunksOf } from "./helpers";

const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
const utf8 = (text: string, bom = false) => new Uint8Array([...(bom ? [0xef, 0xbb, 0xbf] : []), ...new TextEncoder().encode(text)]);
const BANK: FileMapping = { kind: "bank", columns: { date: "Fecha", person: "Beneficiario", reference: "Referencia", amount: "Monto", value: "ID Pago" }, decimal: "comma", dateOrder: "dmy" };
const HEADER = ["Fecha", "Beneficiario", "Referencia", "Monto", "ID Pago"];
const read = (bytes: Uint8Array, mapping = BANK, delimiter = ";", size?: number, onProgress?: (n: number) => void) => readImportFile(chunksOf(bytes, size), delimiter, mapping, HEADER, onProgress);

describe("encodings", () => {
  it("UTF-8 with a BOM: the BOM is not part of the first header", async () => {
    const lines = await read(utf8("Fecha;Beneficiario;Referencia;Monto;ID Pago\r\n13/04/2026;Ana Muñoz;EXP-1;1.234,50;P-1\r\n", true));
    expect(lines.lines[0]).toMatchObject({ person: "Ana Muñoz", day: "2026-04-13", amount: { units: 123450, scale: 2 } });
    // A quoted first header (as some exports write every field) opens its quote right after the BOM.
    const quoted = await read(utf8('"Fecha";"Beneficiario";"Referencia";"Monto";"ID Pago"\r\n"13/04/2026";"Ana";"EXP-1";"1,00";"P-1"\r\n', true));
    expect(quoted.lines[0]).toMatchObject({ day: "2026-04-13", value: "P-1" });
  });

  it("Windows-1252 (not valid UTF-8) reads its accented letters as written", async () => {
    const bytes = latin1("Fecha;Beneficiario;Referencia;Monto;ID Pago\r\n13/04/2026;José Muñoz;Viático;10,00;P-1\r\n");
    expect(detectEncoding(bytes)).toBe("windows-1252");
    expect((await read(bytes)).lines[0]).toMatchObject({ person: "José Muñoz", reference: "Viático" });
  });

  it("a UTF-8 character cut between two chunks is read whole, whatever the chunk size", async () => {
    const bytes = utf8("Fecha;Beneficiario;Referencia;Monto;ID Pago\nÑandú 😀;x\n".replace("Ñandú 😀;x", "13/04/2026;Ñandú 😀;R;1,00;P"));
    for (const size of [1, 2, 3, 5, 7]) expect((await read(bytes, BANK, ";", size)).lines[0].person).toBe("Ñandú 😀");
  });
});

describe("delimiters, amounts and dates", () => {
  it("finds the delimiter and the header; quoted fields keep delimiters, quotes and line breaks", () => {
    const shape = sniffShape('Date,Payee,Memo,Amount,Payment ID\n04/13/2026,"Soto, Luis","Paid ""fast""\nnext line","1,234.50",P-1\n');
    expect(shape.delimiter).toBe(",");
    expect(shape.rows[0].fields).toEqual(["04/13/2026", "Soto, Luis", 'Paid "fast"\nnext line', "1,234.50", "P-1"]);
    expect(guessColumns(shape.header)).toEqual({ value: "Payment ID", amount: "Amount", date: "Date", person: "Payee", reference: "Memo" });
  });

  it("amounts with thousands separators and either decimal mark, signs and currency signs", () => {
    expect(readAmount("1.234.567,89", "comma")).toEqual({ units: 123456789, scale: 2 });
    expect(readAmount("1,234,567.89", "dot")).toEqual({ units: 123456789, scale: 2 });
    expect(readAmount("1 234,5", "comma")).toEqual({ units: 12345, scale: 1 });
    expect(readAmount("(12.50)", "dot")).toEqual({ units: -1250, scale: 2 });
    expect(readAmount("USD 12.50-", "dot")).toEqual({ units: -1250, scale: 2 });
    expect(readAmount("12,50 €", "comma")).toEqual({ units: 1250, scale: 2 });
    expect(readAmount("1,23,4", "dot")).toBeNull();
    expect(toMinor({ units: 1234, scale: 0 }, 2)).toBe(123400);
    expect(toMinor({ units: 1234, scale: 1 }, 0)).toBe(123.4); // finer than CLP: never equal to a peso amount
  });

  it("the decimal mark is decided by the file's values, and asked when they cannot decide (1,234 could be either)", () => {
    expect(decideDecimalMark(["1.234,56", "12,50", "1.000"]).mark).toBe("comma");
    expect(decideDecimalMark(["1,234.56", "1,000"]).mark).toBe("dot");
    expect(decideDecimalMark(["1,234", "2,000"])).toEqual({ mark: null, why: '"1,234" reads as 1234 with a thousands separator or as a decimal' });
    expect(decideDecimalMark(["12,50", "12.50"]).mark).toBeNull();
  });

  it("dates in the file's order; 03/04/2026 is never guessed: asked, and unread until answered", () => {
    expect(decideDateOrder(["03/04/2026", "13/04/2026"]).order).toBe("dmy");
    expect(decideDateOrder(["03/04/2026", "04/13/2026"]).order).toBe("mdy");
    expect(decideDateOrder(["03/04/2026", "05/06/2026"])).toEqual({ order: null, needed: true, why: "a date such as 03/04/2026 can be read day first or month first" });
    expect(decideDateOrder(["2026-04-03", "13-Apr-2026"])).toMatchObject({ order: null, needed: false });
    expect(readDate("03/04/2026", null)).toBeNull();
    expect(readDate("03/04/2026", "dmy")).toEqual({ day: "2026-04-03" });
    expect(readDate("03/04/2026", "mdy")).toEqual({ day: "2026-03-04" });
    expect(readDate("31/02/2026", "dmy")).toBeNull();
    expect(readDate("2026-04-03T10:30:00+02:00", null)).toEqual({ day: "2026-04-03", instant: "2026-04-03T08:30:00Z" });
    expect(readDate("3-abr-26", null)).toEqual({ day: "2026-04-03" });
  });
});

describe("read in chunks of any size, with progress", () => {
  it("the same records whatever the chunk boundaries (between \\r and \\n, inside quotes, inside \"\")", () => {
    const text = 'a;b\r\n"x;""y""\r\nz";2\r\n\r\n;;\r\nlast;1';
    const whole = parseCsv(text, ";");
    expect(whole).toEqual([{ line: 1, fields: ["a", "b"] }, { line: 2, fields: ['x;"y"\r\nz', "2"] }, { line: 6, fields: ["last", "1"] }]);
    for (let size = 1; size <= text.length; size++) {
      const reader = new CsvReader(";");
      const got = [];
      for (let at = 0; at < text.length; at += size) got.push(...reader.push(text.slice(at, at + size)));
      got.push(...reader.end());
      expect(got).toEqual(whole);
    }
  });

  it("progress is told after each chunk, up to the file's size", async () => {
    const body = Array.from({ length: 3000 }, (_, i) => `13/04/2026;Ana;EXP-${i};1,00;P-${i}`).join("\n");
    const bytes = utf8(`Fecha;Beneficiario;Referencia;Monto;ID Pago\n${body}\n`);
    const seen: number[] = [];
    const result = await read(bytes, BANK, ";", 16 * 1024, (n) => seen.push(n));
    expect(result.lines).toHaveLength(3000);
    expect(seen.length).toBe(Math.ceil(bytes.length / (16 * 1024)));
    expect(seen.at(-1)).toBe(bytes.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});

describe("bad files are refused whole, saying what to do", () => {
  const refused = async (bytes: Uint8Array, message: RegExp, mapping = BANK, delimiter = ";") => {
    const error = await read(bytes, mapping, delimiter).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(message);
  };

  it("an Excel workbook, a UTF-16 file, binary data", async () => {
    await refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]), /Excel workbook \(\.xlsx\), not a CSV file: open it in Excel and save it as CSV UTF-8/);
    await refused(new Uint8Array([0xff, 0xfe, 0x46, 0, 0x65, 0]), /saved as UTF-16/);
    await refused(new Uint8Array([0x46, 0x00, 0x01, 0x02]), /binary data/);
  });

  it("UTF-8 that turns invalid further on", async () => {
    const head = utf8(`Fecha;Beneficiario;Referencia;Monto;ID Pago\n${"13/04/2026;Ana;R;1,00;P\n".repeat(4000)}`);
    await refused(new Uint8Array([...head, ...latin1("13/04/2026;Muñoz;R;1,00;P\n")]), /not valid UTF-8 after byte 65,536/);
  });

  it("one column only (the wrong delimiter), no lines, a quote never closed", () => {
    expect(() => sniffShape("Fecha Monto\n13/04/2026 10\n")).toThrow(/one column only/);
    expect(() => sniffShape("Fecha;Monto\n")).toThrow(/a header and no lines/);
    expect(() => parseCsv('a;b\n"open;1\n', ";")).toThrow(/A quote opened on line 2 is never closed/);
  });

  it("a file most of whose lines cannot be read as mapped (the wrong decimal mark or date order chosen): nothing is read", async () => {
    const bytes = utf8(`Fecha;Beneficiario;Referencia;Monto;ID Pago\n${"13/04/2026;Ana;R;1,234.50;P\n".repeat(5)}`);
    await refused(bytes, /5 of 5 lines cannot be read \(line 2: Amount "1,234\.50" is not an amount written with a decimal comma;.*nothing was changed/);
    await refused(utf8("Fecha;Beneficiario;Referencia;Monto;ID Pago\n04/13/2026;Ana;R;1,00;P\n"), /Payment date "04\/13\/2026" is not a date written day first/);
  });

  it("a few unreadable lines are listed with why, the rest read", async () => {
    const result = await read(utf8("Fecha;Beneficiario;Referencia;Monto;ID Pago\n13/04/2026;Ana;R;1,00;P\n13/04/2026;Ana;R;x;P\n13/04/2026;Ana;R;2,00;P\n13/04/2026;Ana;R;2,00;\n"));
    expect(result.lines.map((l) => l.line)).toEqual([2, 4]);
    expect(result.unreadable).toEqual([{ line: 3, why: 'Amount "x" is not an amount written with a decimal comma' }, { line: 5, why: "it has no Payment ID" }]);
  });
});
