/**
 * Issue 43, parts 4 and 5, as a person reads them in the workbench (the production build in Debian's Chromium,
 * against the real sandbox): the preview's list says each change in the columns' words, never a JSON body; a
 * cleared State says so; and a record a colleague changed between the load and the sync (a PATCH sent straight to
 * the sandbox) reads as the colleague's change, field by field, never as the person's mistake, before and after a
 * Refresh. Screenshots go to /tmp/words-*.png.
 */
import type { Page } from "playwright-core";
import { expectText } from "../support/expect-text";
import { cell, columnOf, connect, enterInCell, loadedTable, modelTable, openWorkbench, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(900_000);

let rig: WorkbenchRig;
beforeAll(async () => (rig = await startWorkbench()));
afterAll(async () => rig?.close());

/** The lines of the taskpane's row list, as a person reads them. */
const listed = (page: Page) => page.locator("#preview ul.rows li").allTextContents();

/** What no line a person reads may hold: a JSON body, or a field name only the service knows. */
const SERVICE_WORDS = /[{}]|"state"|accounted_id|paid_id|paid_at/;

it("the preview and the sync's list speak the columns' words, and a colleague's change reads as theirs, before and after a Refresh", async () => {
  const page = await openWorkbench(rig, { width: 1600, height: 1000 });
  await connect(page, rig.f.enterprise.api_key);
  const sub = rig.f.enterprise.subsidiaries[0];
  // Every state: a record someone else moves on stays in the table's query, so Refresh brings their change in.
  await page.getByLabel("Subsidiary ID").fill(sub);
  await page.getByRole("button", { name: "Load into a table" }).click();
  const table = await loadedTable(page);
  const loaded = await modelTable(page, table);
  const approved = (loaded.values("State") as string[]).flatMap((s, i) => (s === "approved" ? [i] : [])).slice(0, 4);
  const ids = approved.map((i) => String(loaded.values("Expense ID")[i]));
  const rows = approved.map((i) => i + 2);
  const [state, paidId] = [await columnOf(page, "State"), await columnOf(page, "Paid ID")];

  // The 1st: a change to send. The 2nd: State cleared. The 3rd: accounted with a Paid ID. The 4th: paid, which a colleague beats.
  await enterInCell(page, `${state}${rows[0]}`, "paid", "paid");
  await enterInCell(page, `${paidId}${rows[0]}`, "PAY-MINE-2", "PAY-MINE-2");
  await cell(page, `${state}${rows[1]}`).click();
  await page.keyboard.press("Delete");
  await expectText(cell(page, `${state}${rows[1]}`), "");
  await enterInCell(page, `${state}${rows[2]}`, "accounted", "accounted");
  await enterInCell(page, `${paidId}${rows[2]}`, "PAY-4", "PAY-4");
  await enterInCell(page, `${state}${rows[3]}`, "paid", "paid");
  await enterInCell(page, `${paidId}${rows[3]}`, "PAY-MINE-5", "PAY-MINE-5");

  // A colleague, elsewhere, sets row 5's record to accounted with their Accounted ID: a PATCH straight to the sandbox.
  const colleague = await rig.f.call("PATCH", `${rig.f.prefix}/subsidiaries/${sub}/expenses/${ids[3]}/`, { body: { state: "accounted", accounted_id: "ACC-COLLEAGUE-1009" } });
  expect(colleague.status).toBe(200);

  await page.getByRole("button", { name: "Preview sync" }).click();
  await expectText(page.locator("#preview-counts"), /^2 to send, 2 invalid \(will not be sent\), \d+ unchanged\.$/);
  const short = ids.map((id) => id.slice(0, 8));
  expect(await listed(page)).toEqual([
    `Row ${rows[0]} ${short[0]}: will send approved → paid (Paid ID: PAY-MINE-2) Discard edit`,
    `Row ${rows[1]} ${short[1]}: State is empty: choose accounted or paid, or undo the edit. Discard edit`,
    `Row ${rows[2]} ${short[2]}: Paid ID and Paid at go with State paid only: clear them, or set State to paid. Discard edit`,
    `Row ${rows[3]} ${short[3]}: will send approved → paid (Paid ID: PAY-MINE-5) Discard edit`,
  ]);
  await page.locator("#preview ul.rows").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/words-preview.png" });

  await page.getByRole("button", { name: "Confirm and sync" }).click();
  await expectText(page.locator("#sync-status"), "1 applied, 2 invalid (not sent), 1 in conflict (not sent).");
  const conflict = `Changed on the server by someone else since you loaded: State is now accounted (you loaded approved), Accounted ID is now ACC-COLLEAGUE-1009 ` +
    "(you loaded empty). Your edit (State paid, Paid ID PAY-MINE-5) was not sent. Refresh to see their change (your edit is kept), then edit again if still needed.";
  const after = await listed(page);
  expect(after).toContain(`Row ${rows[3]} ${short[3]}: Conflict, not sent: ${conflict}`);
  for (const line of after) expect(line).not.toMatch(SERVICE_WORDS);
  expect(after.join(" ")).not.toMatch(/put back/);
  // The row's status says the same, after its time stamp.
  const synced = await modelTable(page, table);
  expect(String(synced.values("Sync status")[approved[3]])).toMatch(new RegExp(`^Conflict, not sent \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: ${conflict.replace(/[()]/g, "\\$&")}$`));
  // The journal: words in every column a person reads; the exact request, JSON and all, in its own column.
  const journal = await modelTable(page, "SpendSyncJournal");
  const exact = journal.values("Exact request") as string[];
  expect(exact).toContain(`PATCH /proxy/public/v1/enterprises/${rig.f.enterprise.id}/subsidiaries/${sub}/expenses/${ids[0]}/ {"state":"paid","paid_id":"PAY-MINE-2"}`);
  for (const header of journal.header.filter((h) => h !== "Exact request")) {
    for (const value of journal.values(header)) expect(String(value)).not.toMatch(SERVICE_WORDS);
  }
  expect(JSON.stringify(journal.header.map((h) => journal.values(h)))).not.toContain(rig.f.enterprise.api_key);
  await page.locator("#preview ul.rows").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/words-conflict.png" });

  // Refresh: the colleague's Accounted ID comes in beside the person's kept edit, so the next Preview sends the edit on
  // top of it; it never asks the person to "put back" a value they did not clear.
  await page.getByRole("button", { name: "Refresh selected table" }).click();
  await expectText(page.locator("#refresh-status"), /Your unsynced edits: 2 kept, 1 also changed on the server \(flagged in Sync status\)\.$/);
  const refreshed = await modelTable(page, table);
  const row5 = (refreshed.values("Expense ID") as string[]).indexOf(ids[3]);
  expect([refreshed.values("State")[row5], refreshed.values("Accounted ID")[row5], refreshed.values("Paid ID")[row5]]).toEqual(["paid", "ACC-COLLEAGUE-1009", "PAY-MINE-5"]);
  await page.getByRole("button", { name: "Preview sync" }).click();
  await expectText(page.locator("#preview-counts"), /^1 to send, 2 invalid/);
  const again = await listed(page);
  expect(again).toContain(`Row ${row5 + 2} ${short[3]}: will send accounted → paid (Paid ID: PAY-MINE-5) Discard edit`);
  expect(again.join(" ")).not.toMatch(/put back/);
  await page.locator("#preview ul.rows").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/words-after-refresh.png" });
  await page.close();
});
