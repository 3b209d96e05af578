/**
 * How an approver reaches a batch (src/taskpane/team-link.ts): the link the preparer sends is accepted only as
 * its own gateway's, and a bare id too; the batch submitted from a workbook is noted in the workbook's settings
 * (read back through the real adapter, over Office.js, from the in-memory Excel) for the gateway it went to.
 */
import { ExcelWorkbook } from "../../src/sheets/excel";
import { batchIdOf, batchLink, noteSubmitted, submittedHere, SUBMITTED_SETTING } from "../../src/taskpane/team-link";
import { FakeExcel } from "../../src/workbench/fake-excel";

const ID = "0f0e0d0c-0b0a-4908-8706-050403020100";
const GATEWAY = "https://gateway.example.com/spend";

test("the link names the batch under the gateway's own address, and reads back to its id", () => {
  const link = batchLink(`${GATEWAY}/`, ID);
  expect(link).toBe(`https://gateway.example.com/spend/team/v1/link/${ID}`);
  expect(batchIdOf(link, GATEWAY)).toEqual({ id: ID });
  expect(batchIdOf(`  ${link.slice(0, -ID.length)}${ID.toUpperCase()}  `, GATEWAY)).toEqual({ id: ID });
  expect(batchIdOf(ID.toUpperCase(), GATEWAY)).toEqual({ id: ID });
});

test("a link of another host, another path, or no batch id opens nothing, and says why", () => {
  expect(batchIdOf(`https://gateway.example.org/spend/team/v1/link/${ID}`, GATEWAY)).toEqual({
    error: "This link is not of your gateway (https://gateway.example.com): ask the preparer for the link their taskpane showed.",
  });
  for (const text of [`https://gateway.example.com/team/v1/link/${ID}`, `https://gateway.example.com/spend/team/v1/link/${ID}/x`, `https://gateway.example.com/spend/team/v1/link/not-an-id`]) {
    expect(batchIdOf(text, GATEWAY)).toEqual({ error: "This address names no batch: paste the link as the preparer sent it." });
  }
  expect(batchIdOf("batch 0f0e0d0c", GATEWAY)).toEqual({ error: "Paste the batch's link (or its id) as the preparer sent it." });
});

test("the batch submitted from a workbook is offered to whoever opens that workbook through the same gateway only", async () => {
  const excel = new FakeExcel();
  const workbook = new ExcelWorkbook(excel);
  expect(await submittedHere(workbook, GATEWAY)).toBeNull();
  await noteSubmitted(workbook, GATEWAY, ID);
  expect(await submittedHere(workbook, GATEWAY)).toBe(ID);
  expect(await submittedHere(workbook, "https://other-gateway.example.com")).toBeNull();
  // What the file carries: the gateway and the id, nothing else (no key, no token).
  expect(JSON.parse((await workbook.readSetting(SUBMITTED_SETTING))!)).toEqual({ gateway: GATEWAY, id: ID });
  await workbook.writeSetting(SUBMITTED_SETTING, "{not json");
  expect(await submittedHere(workbook, GATEWAY)).toBeNull();
});
