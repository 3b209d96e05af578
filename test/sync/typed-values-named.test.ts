/**
 * The status naming values typed over the service's cells names every column once, joined as a sentence
 * ("A", "A and B", "A, B and C", with "is" or "are"), and quotes each typed value as it is. A record on two
 * rows has none named: which row's cells are its own cannot be told.
 */
import { previewSync, typedNote, type TypedValue } from "../../src/sync";
import { withExcel } from "../support/excel";
import { edit, loadFor } from "../support/sync";

const typed = (header: string, value: TypedValue["typed"]): TypedValue => ({ row: 0, id: "e1", header, typed: value });
const TAIL = "Sync states sends only State, Accounted ID, Paid ID and Paid at. Refresh asks before it replaces a typed value.";

it.each<[string, TypedValue[], string]>([
  ["one column", [typed("Amount", 999)], `Not sent: Amount is the service's (typed here: Amount 999); ${TAIL}`],
  ["two columns", [typed("Amount", 999), typed("Description", "Mine")],
    `Not sent: Amount and Description are the service's (typed here: Amount 999, Description "Mine"); ${TAIL}`],
  ["three columns", [typed("Amount", 1), typed("Description", ""), typed("Merchant", "Café \"X\"")],
    `Not sent: Amount, Description and Merchant are the service's (typed here: Amount 1, Description "", Merchant "Café \\"X\\""); ${TAIL}`],
])("%s", (_what, values, note) => {
  expect(typedNote(values)).toBe(note);
});

it("a record's ID pasted on another row: neither row's cells are named, the other records' still are", async () => {
  const f = await withExcel();
  try {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b, c] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
    edit(f, table, a.id, { Amount: 999 });
    edit(f, table, b.id, { "Expense ID": a.id }); // b's row now claims to be a, with b's cells
    edit(f, table, c.id, { Amount: 111 });
    const preview = await previewSync(f.workbook, table);
    expect(preview.typed.map((t) => [t.id, t.header, t.typed])).toEqual([[c.id, "Amount", 111]]);
  } finally {
    f.sandbox.close();
  }
});
