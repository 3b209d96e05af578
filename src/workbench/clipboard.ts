/**
 * Text on the clipboard as Excel reads and writes it: cells separated by tabs, rows by line breaks (CRLF
 * or LF), a final line break ignored, and a cell holding a tab, a line break or a quote written in double
 * quotes with inner quotes doubled.
 */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let i = 0;
  const endRow = () => { row.push(cell); rows.push(row); row = []; cell = ""; };
  while (i < text.length) {
    const ch = text[i];
    if (cell === "" && ch === '"' && text.indexOf('"', i + 1) > 0) {
      // A quoted cell: up to the quote that is not doubled.
      let j = i + 1;
      let quoted = "";
      while (j < text.length) {
        if (text[j] === '"' && text[j + 1] === '"') { quoted += '"'; j += 2; continue; }
        if (text[j] === '"') break;
        quoted += text[j++];
      }
      const after = text[j + 1];
      if (j < text.length && (after === undefined || after === "\t" || after === "\n" || after === "\r")) {
        cell = quoted;
        i = j + 1;
        continue;
      }
    }
    if (ch === "\t") { row.push(cell); cell = ""; i++; continue; }
    if (ch === "\r" && text[i + 1] === "\n") { endRow(); i += 2; continue; }
    if (ch === "\n" || ch === "\r") { endRow(); i++; continue; }
    cell += ch;
    i++;
  }
  if (cell !== "" || row.length > 0) endRow();
  return rows;
}

export function formatTsv(grid: string[][]): string {
  const quote = (s: string) => (/[\t\r\n"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return grid.map((row) => row.map(quote).join("\t")).join("\r\n") + "\r\n";
}
