/**
 * Issue 45 as a finance person meets it in the workbench (Chromium, the production build, the real sandbox
 * with --card-close): the Card close section closes a card's billing period, tied out to the statement total
 * they type; the chase list names the cardholder; a note and an Accepted typed beside a movement's row stay
 * there when the period is closed again. Screenshots go to test-output/card-close-*.png.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { closePlace } from "../../src/sheets/card-close/sheet";
import { expectText } from "../support/expect-text";
import { OUT, cell, columnOf, connect, enterInCell, modelTable, openWorkbench, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(240_000);

let rig: WorkbenchRig;
beforeAll(async () => {
  rig = await startWorkbench({ cardClose: { movements: 40 } });
});
afterAll(async () => rig?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: join(OUT, `card-close-${name}.png`) });

it("closes a period tied out to the typed statement total, lists whom to chase, and keeps a note through a refresh", async () => {
  const data = rig.f.sandbox.store.data;
  const first = data.movements.find((m) => m.id === data.card_close_truth!.links[0].movement_id)!;
  const card = data.cards.find((c) => c.id === first.card_id)!;
  const period = data.billing_periods.find((p) => p.id === first.billing_period_id)!;
  const movements = data.movements.filter((m) => m.billing_period_id === period.id);
  const total = movements.reduce((sum, m) => sum + (m.is_deposit ? -m.amount.amount : m.amount.amount), 0);
  const holder = data.people.find((p) => p.id === card.user_id)!;
  const place = closePlace(card.last_four_digits, period.end_date);

  const page = await openWorkbench(rig);
  await connect(page, rig.f.enterprise.api_key);
  const section = page.locator("#card-close");
  await section.locator("summary").click();
  await section.getByRole("button", { name: "List cards" }).click();
  await page.locator(`#close-card option[value="${card.id}"]`).waitFor({ state: "attached" });
  await page.locator("#close-card").selectOption(card.id);
  await section.getByLabel("Billing period").fill(period.id);
  await section.getByLabel("Subsidiaries whose expenses count").fill(rig.f.enterprise.subsidiaries[0]);
  // Typed as the statement prints it in Chile: dots between thousands.
  await section.getByLabel("Total on the bill").fill(total.toLocaleString("de-DE"));
  await section.getByRole("button", { name: "Close the period" }).click();
  await expectText(page.locator("#close-status"), new RegExp(`ties out at CLP ${total.toLocaleString("en-US")}\\.`));
  await page.locator(`[data-sheet="${place.tieOut.sheetName}"]`).click();
  await expectText(cell(page, "A1"), "Section");
  const tie = await modelTable(page, place.tieOut.tableName);
  expect(tie.values("Note")).toContain("Ties out");
  await shot(page, "1-tie-out");

  const chase = await modelTable(page, place.chase.tableName);
  expect(chase.values("Cardholder").length).toBeGreaterThan(0);
  expect(new Set(chase.values("Cardholder"))).toEqual(new Set([`${holder.first_name} ${holder.last_name}`]));
  await page.locator(`[data-sheet="${place.chase.sheetName}"]`).click();
  await expectText(cell(page, "A1"), "Cardholder");
  await shot(page, "2-chase");

  await page.locator(`[data-sheet="${place.movements.sheetName}"]`).click();
  await expectText(cell(page, "A1"), "Date");
  const notes = await columnOf(page, "Notes");
  const accepted = await columnOf(page, "Accepted");
  const before = await modelTable(page, place.movements.tableName);
  const reference = before.values("Reference")[2];
  await enterInCell(page, `${notes}4`, "Asked Ana for the receipt", "Asked Ana for the receipt");
  await enterInCell(page, `${accepted}4`, "Yes", "Yes");
  await section.getByRole("button", { name: "Close the period" }).click();
  await expectText(page.locator("#close-status"), /Your notes were kept on 1 row\./);
  const after = await modelTable(page, place.movements.tableName);
  const row = after.values("Reference").indexOf(reference);
  expect(after.values("Notes")[row]).toBe("Asked Ana for the receipt");
  expect(after.values("Accepted")[row]).toBe("Yes");
  await expectText(cell(page, `${notes}${row + 2}`), "Asked Ana for the receipt");
  await shot(page, "3-movements-after-refresh");
});
