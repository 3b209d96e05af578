/**
 * A State typed in another case, or pasted (which takes a cell's dropdown away in the in-memory Excel, the
 * strict reading): read as the state it names, or refused with a message; never sent as typed.
 */
import type { RawRequest } from "../../src/api";
import { previewSync, runSync } from "../../src/sync";
import { tableView, withExcel, type ExcelFixture } from "../support/excel";
import { clientWith, loadFor } from "../support/sync";

let f: ExcelFixture;
afterEach(() => f?.sandbox.close());

it("State typed or pasted in any case is the state it names; a word that is no state is refused, even where a paste took the dropdown away", async () => {
  f = await withExcel();
  const table = await loadFor(f, { resource: "expenses", state: "approved" });
  const [typed, pasted, misspelt, free] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
  const t = tableView(f.excel, table);
  const at = (id: string) => t.address("State", t.values(t.header[0]).indexOf(id));
  const paidId = (id: string) => t.address("Paid ID", t.values(t.header[0]).indexOf(id));
  f.excel.user.type(t.sheet.name, at(typed.id), "Paid");
  f.excel.user.type(t.sheet.name, paidId(typed.id), "PAY-T");
  f.excel.user.paste(t.sheet.name, at(pasted.id), "PAID ");
  f.excel.user.type(t.sheet.name, paidId(pasted.id), "PAY-P");
  f.excel.user.paste(t.sheet.name, at(misspelt.id), "payed");
  // The paste took this cell's dropdown away: Excel now takes anything typed there.
  f.excel.user.paste(t.sheet.name, at(free.id), "approved");
  f.excel.user.type(t.sheet.name, at(free.id), "done");
  expect([typed, pasted, misspelt, free].map((e) => tableView(f.excel, table).values("State")[t.values(t.header[0]).indexOf(e.id)]))
    .toEqual(["Paid", "PAID ", "payed", "done"]);

  const preview = await previewSync(f.workbook, table);
  expect(preview.rows.map((r) => [r.id, r.kind, r.patch ?? r.message]).sort()).toEqual([
    [typed.id, "change", { state: "paid", paid_id: "PAY-T" }],
    [pasted.id, "change", { state: "paid", paid_id: "PAY-P" }],
    [misspelt.id, "invalid", '"payed" is not a state of an expense; choose accounted or paid.'],
    [free.id, "invalid", '"done" is not a state of an expense; choose accounted or paid.'],
  ].sort());

  const sent: RawRequest[] = [];
  const client = clientWith(f, (inner) => async (request) => {
    if (request.method === "PATCH") sent.push(request);
    return inner(request);
  });
  await runSync(client, f.workbook, preview);
  expect(sent.map((r) => JSON.parse(String(r.body))).sort((a, b) => a.paid_id.localeCompare(b.paid_id))).toEqual([{ state: "paid", paid_id: "PAY-P" }, { state: "paid", paid_id: "PAY-T" }]);
  expect([typed, pasted, misspelt, free].map((e) => f.sandbox.store.expensesOf(f.sub).find((x) => x.id === e.id)!.state)).toEqual(["paid", "paid", "approved", "approved"]);
});
