/**
 * A hostile server (or proxy) echoes the API key wherever a record can carry text: in a description, as a
 * state, in the values a PATCH answers with and in its error messages. After a load, a preview and a sync,
 * no cell of any sheet (the very hidden snapshot and the journal included) holds the key, raw, URL-encoded
 * or base64.
 */
import { JOURNAL_TABLE, previewSync, runSync } from "../../src/sync";
import { cellOf, clientWith, edit, loadFor } from "../support/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

/** Every form of the key a leak could take. */
const formsOf = (key: string) => [key, encodeURIComponent(key), Buffer.from(key).toString("base64"), Buffer.from(key).toString("base64url")];

function cellsHolding(needles: string[]): string[] {
  const found: string[] = [];
  for (const sheet of f.excel.model.sheets) {
    for (const [row, line] of sheet.cells) {
      for (const [column, cell] of line) {
        const text = `${String(cell.value)} ${cell.formula ?? ""}`;
        if (needles.some((n) => text.includes(n))) found.push(`${sheet.name}!R${row + 1}C${column + 1}: ${text.slice(0, 80)}`);
      }
    }
  }
  return found;
}

it("no cell of any sheet holds the key after a load, a preview and a sync against a server that echoes it", async () => {
  f = await withExcel();
  const key = f.enterprise.api_key;
  const approved = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  const [asState, asText, asPaidId, refused] = approved;
  const echo = clientWith(f, (inner) => async (request) => {
    const response = await inner(request);
    if (response.status === 200 && request.method === "GET") {
      const body = JSON.parse(response.text);
      for (const record of body.results ?? [body]) {
        if (record.id === asState.id) record.state = key;
        if (record.id === asText.id) record.description = `refund ${key} ${Buffer.from(key).toString("base64")}`;
      }
      return { ...response, text: JSON.stringify(body) };
    }
    if (request.method === "PATCH" && request.url.includes(asPaidId.id) && response.status === 200) {
      const body = JSON.parse(response.text);
      body.paid_id = `${body.paid_id} ${encodeURIComponent(key)}`;
      return { ...response, text: JSON.stringify(body) };
    }
    if (request.method === "PATCH" && request.url.includes(refused.id)) {
      return { ...response, status: 400, text: JSON.stringify({ status: 400, error: `Refused for key ${key}` }) };
    }
    return response;
  });
  const table = await loadFor(f, { resource: "expenses", state: "approved" }, echo);
  expect(cellsHolding(formsOf(key))).toEqual([]);
  expect(String(cellOf(f, table, asState.id, "State"))).toContain("[redacted]");

  edit(f, table, asState.id, { State: "accounted", "Accounted ID": "ACC-K1" });
  edit(f, table, asText.id, { State: "accounted", "Accounted ID": "ACC-K2" });
  edit(f, table, asPaidId.id, { State: "paid", "Paid ID": "PAY-K3" });
  edit(f, table, refused.id, { State: "accounted", "Accounted ID": "ACC-K4" });
  const report = await runSync(echo, f.workbook, await previewSync(f.workbook, table));
  expect(report.results.length).toBe(4);
  expect(cellsHolding(formsOf(key))).toEqual([]);
  const journal = JSON.stringify(tableView(f.excel, JOURNAL_TABLE).rows);
  expect(journal).toContain("[redacted]");
  // What the taskpane shows of the run (its summary and every row's message) holds no key either.
  expect(JSON.stringify([report.summary, ...report.results.map((r) => r.message)])).not.toContain(key);
});
