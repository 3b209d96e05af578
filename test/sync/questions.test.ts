/**
 * A Paid ID or an Accounted ID that looks like a date or an amount is questioned by Preview (issue 24: a user
 * who expected Tab to reach Paid ID sent `paid_id: "2026-11-24 10:00"`): the row says "Check:" and what looks
 * wrong, and Sync states sends it only when the user confirms the rows to check.
 */
import { canonical, type TrackedValues } from "../../src/sheets";
import { PREVIEW_FILLS, planRows, previewInSheet, runSync, type SheetRow } from "../../src/sync";
import { idQuestion } from "../../src/sync/questions";
import { withExcel, type ExcelFixture } from "../support/excel";
import { cellOf, edit, fillOf, loadFor } from "../support/sync";

function row(id: string, cells: Partial<TrackedValues>, at = 0): SheetRow {
  const raw = { state: "", accounted_id: "", paid_id: "", paid_at: "", ...cells };
  const desired = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, canonical(k as keyof TrackedValues, v)])) as TrackedValues;
  return { row: at, id, raw, desired, status: "" };
}

describe("ids that look like a date or an amount", () => {
  it.each([
    ["2026-11-24 10:00", "date"], ["2026-11-24", "date"], ["24/11/2026", "date"], ["11-24-26 10:00", "date"], ["2026-11-24T10:00:00Z", "date"],
    ["1,250.00", "amount"], ["1.250,00", "amount"], ["1250.00", "amount"], ["$1250", "amount"], ["-12.5", "amount"],
  ])("%s looks like a %s", (text, kind) => {
    expect(idQuestion("paid_id", text)).toMatch(kind === "date" ? `Paid ID "${text}" looks like a date: did you mean it for Paid at?` : `Paid ID "${text}" looks like an amount`);
  });

  it.each(["PAY-NEW-1", "10023", "ACC-2026-11", "2026", "TRX 24/11", "INV-1,250"])("%s is an id", (text) => {
    expect(idQuestion("accounted_id", text)).toBeNull();
  });

  it("a change sending one is a check, with its patch kept; the same change with a plain id is a change", () => {
    const snapshot = new Map<string, TrackedValues>([
      ["a", { state: "approved", accounted_id: "", paid_id: "", paid_at: "" }],
      ["b", { state: "approved", accounted_id: "", paid_id: "", paid_at: "" }],
    ]);
    const plan = planRows("expense", snapshot, [
      row("a", { state: "paid", accounted_id: "PAY-NEW-1", paid_id: "2026-11-24 10:00", paid_at: "2026-11-24T10:00:00Z" }, 0),
      row("b", { state: "accounted", accounted_id: "1,250.00" }, 1),
    ], new Map());
    expect(plan.rows.map((r) => [r.id, r.kind, r.message])).toEqual([
      ["a", "check", 'Paid ID "2026-11-24 10:00" looks like a date: did you mean it for Paid at?'],
      ["b", "check", 'Accounted ID "1,250.00" looks like an amount, not the id of an entry or a payment.'],
    ]);
    expect(plan.rows[0].patch).toMatchObject({ state: "paid", accounted_id: "PAY-NEW-1", paid_id: "2026-11-24 10:00" });
    const plain = planRows("expense", snapshot, [row("a", { state: "accounted", accounted_id: "ACC-9" })], new Map());
    expect(plain.rows[0].kind).toBe("change");
  });
});

describe("Preview and Sync states with a row to check", () => {
  let f: ExcelFixture;
  beforeEach(async () => {
    f = await withExcel();
  });
  afterEach(() => f?.sandbox.close());

  it("Preview marks it Check:, a sync without confirmation leaves it unsent and says so, a confirmed one sends it", async () => {
    const table = await loadFor(f, { resource: "expenses", state: "approved" });
    const [a, b] = f.sandbox.store.expensesOf(f.sub).filter((e) => e.state === "approved");
    // Paid ID is General (it takes formulas: issue 47): the date is typed as text, with Excel's apostrophe.
    edit(f, table, a.id, { State: "paid", "Accounted ID": "PAY-NEW-1", "Paid ID": "'2026-11-24 10:00", "Paid at (UTC)": "2026-11-24T10:00:00Z" });
    edit(f, table, b.id, { State: "accounted", "Accounted ID": "ACC-B" });

    const preview = await previewInSheet(f.workbook, table);
    expect(preview.counts).toMatchObject({ change: 1, check: 1, invalid: 0 });
    expect(cellOf(f, table, a.id, "Sync status")).toBe(
      'Check: Paid ID "2026-11-24 10:00" looks like a date: did you mean it for Paid at? Not sent unless you confirm it (tick "Send the rows to check as they are"): ' +
      "it would send approved → paid (Accounted ID: PAY-NEW-1, Paid ID: 2026-11-24 10:00, Paid at: 2026-11-24T10:00:00Z). Or fix the cell and preview again.",
    );
    expect(fillOf(f, table, a.id, "Sync status")).toBe(PREVIEW_FILLS.check);

    const first = await runSync(f.client, f.workbook, preview);
    expect(first.counts).toMatchObject({ applied: 1, check: 1 });
    expect(first.summary).toBe("1 applied, 1 to check (not sent: fix or confirm them).");
    expect(f.sandbox.store.expense(f.sub, a.id)!.state).toBe("approved");
    expect(f.sandbox.store.expense(f.sub, b.id)!.state).toBe("accounted");
    expect(cellOf(f, table, a.id, "Sync status")).toMatch(/^Not sent, check the row .*: Paid ID "2026-11-24 10:00" looks like a date: did you mean it for Paid at\? Not confirmed, so not sent/);

    const again = await previewInSheet(f.workbook, table);
    expect(again.counts).toMatchObject({ change: 0, check: 1 });
    const second = await runSync(f.client, f.workbook, again, { sendChecked: true });
    expect(second.summary).toBe("1 applied.");
    expect(f.sandbox.store.expense(f.sub, a.id)).toMatchObject({ state: "paid", accounted_id: "PAY-NEW-1", paid_id: "2026-11-24 10:00" });
  });
});
