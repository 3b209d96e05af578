/** Sync tests' helpers: a loaded table, edits typed as a person would, and the sandbox's view of a record. */
import { fetchTransport, type Transport } from "../../src/api/transport";
import { SpendClient } from "../../src/api";
import { loadTable, type LoadParams } from "../../src/sheets";
import { tableView, withExcel, type ExcelFixture } from "./excel";

export async function loadFor(f: ExcelFixture, params: Partial<LoadParams> & { resource: "allowances" | "expenses" }, client = f.client): Promise<string> {
  const report = await loadTable(client, f.workbook, { enterpriseId: f.enterprise.id, subsidiaryId: f.sub, ...params } as LoadParams);
  return report.tableName;
}

/** A fresh sandbox and in-memory Excel with the first subsidiary's approved expenses loaded, and that table's name. */
export async function withApprovedLoaded(): Promise<{ f: ExcelFixture; tableName: string }> {
  const f = await withExcel();
  return { f, tableName: await loadFor(f, { resource: "expenses", state: "approved" }) };
}

/** Pastes values into a record's row, by column header (paste: no dropdown check, as a bulk paste in Excel). */
export function edit(f: ExcelFixture, tableName: string, id: string, cells: Record<string, string | number>): number {
  const t = tableView(f.excel, tableName);
  const row = t.values(t.header[0]).indexOf(id);
  if (row < 0) throw new Error(`no row for ${id}`);
  for (const [header, value] of Object.entries(cells)) f.excel.user.paste(t.sheet.name, t.address(header, row), value);
  return row;
}

/** The cell of a record's row under a header, as the person sees it. */
export function cellOf(f: ExcelFixture, tableName: string, id: string, header: string) {
  const t = tableView(f.excel, tableName);
  return t.values(header)[t.values(t.header[0]).indexOf(id)];
}

export function fillOf(f: ExcelFixture, tableName: string, id: string, header: string) {
  const t = tableView(f.excel, tableName);
  return t.fill(header, t.values(t.header[0]).indexOf(id));
}

/** A client for the fixture's enterprise with a transport the test can watch or break. */
export function clientWith(f: ExcelFixture, wrap: (inner: Transport) => Transport, extra: Partial<ConstructorParameters<typeof SpendClient>[0]> = {}) {
  return new SpendClient({
    baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key, transport: wrap(fetchTransport),
    retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...extra,
  });
}
