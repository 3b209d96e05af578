/**
 * The in-memory Excel hands a =SPEND formula's cell references as Excel does, by the functions' metadata and
 * the Excel it is (src/workbench/formula-arguments.ts): a data type whole to a parameter typed `any` where
 * functions.json sets allowCustomDataForDataTypeAny and this Excel has CustomFunctionsRuntime 1.4, its basic
 * value elsewhere; an error not at all (the formula shows it). End to end, through the workbench's Entries:
 * =SPEND.EXPENSES(sub,, D5) with D5 a date another =SPEND formula spilled gives the right spill (issue 42).
 */
import { Session, memoryStorage } from "../../src/api";
import * as fns from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { serialToDate, serialToTimestamp } from "../../src/sheets";
import { FakeExcel } from "../../src/workbench/fake-excel";
import { columnLetters } from "../../src/workbench/fake-excel/address";
import { DEFAULT_PROFILE, type ProfileId } from "../../src/workbench/fake-excel/profiles";
import { Entries } from "../../src/workbench/entry";
import type { FunctionsMetadata } from "../../src/workbench/formula-arguments";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError } from "../support/custom-functions";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { builtMetadata } from "../support/functions-metadata";

let f: SandboxFixture;
let metadata: FunctionsMetadata;
/** The arguments each call of SPEND.EXPENSES was handed, in order. */
let handed: unknown[][];

beforeAll(async () => {
  f = await withSandbox();
  const session = new Session(memoryStorage());
  session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  useSession(session);
  metadata = JSON.parse((await builtMetadata()).metadataJson);
  const expenses = (...args: unknown[]) => {
    handed.push(args.slice(0, -1));
    return (fns.expenses as (...a: unknown[]) => Promise<unknown>)(...args);
  };
  // The workbench pads omitted arguments up to the ones functions.json lists, as Excel does.
  Object.assign(globalThis, { CustomFunctions: { registry: { EXPENSES: expenses, EXPENSE: fns.expense }, Error: FunctionError, ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" } } });
});
beforeEach(() => (handed = []));
afterAll(async () => {
  await f.sandbox.close();
  useExcelProfile(DEFAULT_PROFILE);
});

/** A workbench on `profile` with the functions' metadata read (or not), and a spilled list of the first subsidiary's expenses at A1. */
async function workbench(profile: ProfileId, { withMetadata = true } = {}) {
  useExcelProfile(profile);
  const excel = new FakeExcel();
  const entries = new Entries(excel, () => undefined);
  if (withMetadata) entries.useMetadata(metadata);
  const sub = f.enterprise.subsidiaries[0];
  await entries.calculate("Sheet1", "A1", `=SPEND.EXPENSES("${sub}")`);
  const spill = excel.user.spillAt("Sheet1", "A1")!;
  const header = Array.from({ length: spill.columns }, (_, c) => excel.user.valueAt("Sheet1", `${columnLetters(c)}1`));
  // The fourth expense's creation date: the cell a person points the next formula at.
  const created = `${columnLetters(header.indexOf("Created (UTC)"))}5`;
  const below = `A${spill.rows + 3}`;
  /** Enters `=SPEND.EXPENSES(sub,, ref)` below the list; gives its spill's first column and its message. */
  /** The first column of what the formula below the list shows now. */
  const shown = () => {
    const result = excel.user.spillAt("Sheet1", below)!;
    return Array.from({ length: result.rows }, (_, r) => excel.user.valueAt("Sheet1", `A${spill.rows + 3 + r}`));
  };
  const refer = async (ref: string) => {
    handed = [];
    await entries.calculate("Sheet1", below, `=SPEND.EXPENSES("${sub}",, ${ref})`);
    return { ids: shown(), message: entries.messageOf("Sheet1", below) };
  };
  return { excel, entries, sub, created, refer, shown };
}

/** The ids a list from `day` on holds, under its header. */
const idsFrom = (sub: string, day: string) => ["Expense ID", ...f.sandbox.store.expensesOf(sub).filter((e) => e.created_at.slice(0, 10) >= day).map((e) => e.id)];

it("Microsoft 365: a date another =SPEND spilled is handed as its Double with its numberFormat, and filters as the date it shows", async () => {
  const w = await workbench("m365-current");
  const serial = w.excel.user.valueAt("Sheet1", w.created) as number;
  const { ids, message } = await w.refer(w.created);
  expect(handed).toEqual([[w.sub, null, { type: "Double", basicValue: serial, numberFormat: expect.stringMatching(/yy/) }, null, null]]);
  expect(message?.kind).toBe("ok");
  expect(ids).toEqual(idsFrom(w.sub, serialToDate(Math.floor(serial))));
  expect(ids.length).toBeGreaterThan(1);
  expect(ids.length).toBeLessThan(f.sandbox.store.expensesOf(w.sub).length + 1);
});

it("Refresh data recalculates the list before the formula that refers to its date: the same spill, handed the same date", async () => {
  const w = await workbench("m365-current");
  const serial = w.excel.user.valueAt("Sheet1", w.created) as number;
  const first = await w.refer(w.created);
  handed = [];
  await w.entries.recalculateAll();
  // The list first, then the formula below it, handed the date its recalculated spill holds.
  expect(handed).toEqual([[w.sub, null, null, null, null], [w.sub, null, { type: "Double", basicValue: serial, numberFormat: expect.stringMatching(/yy/) }, null, null]]);
  expect(w.shown()).toEqual(first.ids);
});

it("Microsoft 365 before ExcelApi 1.19: the same date is handed as a FormattedNumber, with the same spill", async () => {
  const w = await workbench("m365-2302");
  const serial = w.excel.user.valueAt("Sheet1", w.created) as number;
  const { ids } = await w.refer(w.created);
  expect(handed).toEqual([[w.sub, null, { type: "FormattedNumber", basicValue: serial, numberFormat: expect.stringMatching(/yy/) }, null, null]]);
  expect(ids).toEqual(idsFrom(w.sub, serialToDate(Math.floor(serial))));
});

it("a workbench without functions.json hands the plain serial; Office 2024 (no data types from functions) the timestamp's ISO text: both filter from its day", async () => {
  const w = await workbench("m365-current", { withMetadata: false });
  const serial = w.excel.user.valueAt("Sheet1", w.created) as number;
  const { ids } = await w.refer(w.created);
  // Unread, it cannot know the parameters after the last one typed (they come from the declarations, in the metadata).
  expect(handed).toEqual([[w.sub, null, serial]]);
  expect(ids).toEqual(idsFrom(w.sub, serialToDate(Math.floor(serial))));

  // Office 2024 spills a timestamp as its text (src/functions/plain-values.ts), which the date argument takes.
  const plain = await workbench("office-2024");
  const text = plain.excel.user.valueAt("Sheet1", plain.created) as string;
  expect(text).toBe(serialToTimestamp(serial).replace("T", " ").replace("Z", ""));
  const fromText = await plain.refer(plain.created);
  expect(handed).toEqual([[plain.sub, null, text, null, null]]);
  expect(fromText.message?.kind).toBe("ok");
  expect(fromText.ids).toEqual(ids);
});

it("an entity a person put in a cell: handed whole and refused naming the argument in Microsoft 365; #VALUE! uncalled in Office 2024", async () => {
  const entity = { type: "Entity", text: "Lisbon trip", properties: {} } as Excel.EntityCellValue;
  const m365 = await workbench("m365-current");
  m365.excel.user.insertValue("Sheet1", "Z1", entity);
  expect((await m365.refer("Z1")).message).toMatchObject({ kind: "error", text: expect.stringMatching(/^#VALUE! created_from refers to a cell that holds a data type "Lisbon trip"/) });
  expect(handed).toEqual([[m365.sub, null, entity, null, null]]);
  const office = await workbench("office-2024");
  office.excel.user.insertValue("Sheet1", "Z1", entity);
  expect((await office.refer("Z1")).message).toMatchObject({ kind: "error", text: expect.stringMatching(/^#VALUE! Z1 holds a data type whose value is #VALUE!/) });
  expect(handed).toEqual([]);
});

it("an error, typed or a blocked spill's #SPILL!, is not handed: the function is not called and the formula shows it", async () => {
  const w = await workbench("m365-current");
  w.excel.user.insertValue("Sheet1", "Z1", { type: "Error", basicValue: "#N/A", errorType: "NotAvailable" } as Excel.ErrorCellValue);
  const na = await w.refer("Z1");
  expect([na.ids, na.message?.text]).toEqual([["#N/A"], expect.stringMatching(/^#N\/A Z1 holds #N\/A: Excel hands no error/)]);
  w.excel.user.type("Sheet1", "B2", "in the way");
  expect(w.excel.user.valueAt("Sheet1", "A1")).toBe("#SPILL!");
  const spillError = await w.refer("A1");
  expect(spillError.ids).toEqual(["#SPILL!"]);
  expect(handed).toEqual([]);
});
