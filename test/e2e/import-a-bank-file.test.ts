/**
 * A person imports the bank's payment file into a loaded expenses table in the workbench (Chromium, the
 * production build, the real sandbox), previews and syncs the paid rows: a workbook chosen by mistake is refused
 * and changes nothing; the bank's file (Windows-1252, `;`, decimal commas, day-first dates) fills 500+ rows as
 * edits naming their line, every ambiguous line is listed, Preview names each row's source, nothing is sent
 * before Confirm, and Confirm pays them on the service. Screenshots go to test-output/.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DEFAULT_WINDOW } from "../../src/sheets";
import { generateBankFile } from "../../src/sandbox/import-files";
import { expectText } from "../support/expect-text";
import { OUT, connect, modelTable, openWorkbench, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(1_200_000);

let rig: WorkbenchRig;
beforeAll(async () => {
  rig = await startWorkbench({ scale: 4 });
}, 1_200_000);
afterAll(async () => rig?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: join(OUT, `import-${name}.png`) });
const EDITED = "#F8CBAD";

/** Waits for a text longer than expectText does: a sync of 500 rows takes a while on a loaded machine. */
async function waitForText(page: Page, selector: string, expected: RegExp, ms: number): Promise<void> {
  await page.waitForFunction(([s, source]) => new RegExp(source).test(document.querySelector(s)?.textContent?.trim() ?? ""), [selector, expected.source] as const, { timeout: ms, polling: 250 });
}

it("import a bank file, preview and sync 500+ paid rows, each naming the line it came from", async () => {
  const page = await openWorkbench(rig);
  await connect(page, rig.f.enterprise.api_key);
  const sub = rig.f.enterprise.subsidiaries[0];
  // 1,200 expenses (loadedTable's pattern reads no thousands separator).
  await page.getByLabel("Subsidiary ID").fill(sub);
  await page.getByRole("button", { name: "Load into a table" }).click();
  await waitForText(page, "#load-status", /^Loaded [\d,]+ rows into \S+ /, 240_000);
  const table = /into (\S+) /.exec((await page.locator("#load-status").textContent()) ?? "")![1];
  const data = rig.f.sandbox.store.data;
  const file = generateBankFile(data, { seed: 7, resource: "expense", subsidiaryId: sub, window: DEFAULT_WINDOW, share: 1 });
  const before = await modelTable(page, table);
  const transitions = data.transitions.length;

  // A workbook chosen by mistake: refused in a sentence, nothing changed.
  await page.locator("#import-file").setInputFiles({ name: "statement.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0]) });
  await expectText(page.locator("#import-status"), /^This is an Excel workbook \(\.xlsx\), not a CSV file: .* Nothing was changed\.$/);
  expect(await page.locator("#import-run").isDisabled()).toBe(true);

  // The bank's file: the columns are guessed from its header; amounts and dates as the file writes them.
  await page.locator("#import-file").setInputFiles({ name: "cartola-noviembre.csv", mimeType: "text/csv", buffer: Buffer.from(file.bytes) });
  await expectText(page.locator("#import-status"), /^cartola-noviembre\.csv: 6 columns\. Check which column holds what, then Import\.$/);
  expect(await page.locator("#import-value").inputValue()).toBe("ID Pago");
  expect(await page.locator("#import-date-order").inputValue()).toBe("dmy");
  if (!(await page.locator("#import-decimal").inputValue())) await page.locator("#import-decimal").selectOption("comma");
  await shot(page, "1-mapped");
  await page.getByRole("button", { name: "Import into the table" }).click();
  await waitForText(page, "#import-status", /^Filled\. /, 120_000);
  const counts = (await page.locator("#import-counts").textContent()) ?? "";
  const filledRows = Number(/lines? filled (\d+) rows?/.exec(counts)![1]);
  const ambiguous = file.truth.filter((t) => t.expect === "ambiguous").length;
  expect(filledRows).toBeGreaterThanOrEqual(500);
  expect(counts).toContain(`${ambiguous} ambiguous`);
  expect(await page.locator('#import-lines li[data-kind="ambiguous"]').count()).toBe(ambiguous);
  await shot(page, "2-imported");

  // In the sheet: the filled rows are edits, orange, naming their line; nothing has been sent.
  const after = await modelTable(page, table);
  const ids = after.values("Expense ID");
  const [paidAfter, paidBefore] = [after.values("Paid ID"), before.values("Paid ID")];
  const changed = ids.map((_, row) => row).filter((row) => paidAfter[row] !== paidBefore[row]);
  expect(changed).toHaveLength(filledRows);
  for (const row of changed.slice(0, 50)) {
    expect([after.values("State")[row], after.fills("Paid ID")[row]]).toEqual(["paid", EDITED]);
    const line = Number(/^Imported from bank file line (\d+)\.$/.exec(String(after.values("Sync status")[row]))![1]);
    expect(file.rows[line - 2][5]).toBe(after.values("Paid ID")[row]);
    expect(file.truth[line - 2].ids).toContain(ids[row]);
  }
  expect(data.transitions.length).toBe(transitions);

  await page.getByRole("button", { name: "Preview sync" }).click();
  await waitForText(page, "#preview-counts", /^\d+ to send/, 300_000);
  expect(await page.locator("#preview-counts").textContent()).toMatch(new RegExp(`^${filledRows} to send, 0 invalid`));
  const previewed = await modelTable(page, table);
  expect(String(previewed.values("Sync status")[changed[0]])).toMatch(/^Will send: (approved|accounted) → paid \(Paid ID: .*\) Imported from bank file line \d+\.$/);
  expect(await page.locator("#preview li").first().textContent()).toMatch(/will send approved → paid \(Paid ID: .*\) \(from bank file line \d+\)/);
  expect(data.transitions.length).toBe(transitions);
  await shot(page, "3-preview");

  await page.getByRole("button", { name: "Confirm and sync" }).click();
  await waitForText(page, "#sync-status", new RegExp(`^${filledRows} applied`), 240_000);
  expect(data.transitions.length).toBe(transitions + filledRows);
  const paid = new Map(file.rows.map((r) => [r[5], r]));
  const server = rig.f.sandbox.store.expensesOf(sub).filter((e) => changed.some((row) => ids[row] === e.id));
  expect(server.every((e) => e.state === "paid" && paid.has(e.paid_id!))).toBe(true);
  await shot(page, "4-synced");
  await page.close();
});
