/**
 * What a person reads in each cell a =SPEND formula spills, in each Excel of the README's table (issue 43, part 8;
 * docs/functions.md, "What a cell shows in each Excel"). The formula is entered in the workbench's in-memory Excel
 * as that Excel (its requirement sets), against the sandbox; each cell is read back as the grid shows it: its value
 * with the number format the cell ended with (src/workbench/display.ts, what the grid draws).
 * - Office 2024 (CustomFunctionsRuntime 1.3, no data types): dates and timestamps as ISO text, amounts as numbers
 *   (a SUM of the column is the service's total); before, 46322 and 46322.586.
 * - Microsoft 365 2208–2503: numbers carrying their format as FormattedNumber; 2504+ and the web: as Double.
 */
import { Session, memoryStorage } from "../../src/api";
import { optionalDate } from "../../src/functions/args";
import * as fns from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { FakeExcel, type Scalar } from "../../src/workbench/fake-excel";
import { DEFAULT_PROFILE, type ProfileId } from "../../src/workbench/fake-excel/profiles";
import { display } from "../../src/workbench/display";
import { Entries } from "../../src/workbench/entry";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError, invocation } from "../support/custom-functions";
import { withSandbox, type SandboxFixture } from "../support/sandbox";

let f: SandboxFixture;
let sub: string;
/** The expense every test reads: a paid one, its dates and amount set to what the issue names. */
let id: string;

beforeAll(async () => {
  f = await withSandbox();
  sub = f.enterprise.subsidiaries[0];
  const e = f.sandbox.store.expensesOf(sub).find((x) => x.state === "paid")!;
  Object.assign(e, { date: "2026-10-27", created_at: "2026-10-27T14:05:00Z", paid_at: "2026-10-28T09:30:15Z", amount: 16, currency: "EUR" });
  id = e.id;
  const session = new Session(memoryStorage());
  session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  useSession(session);
  const registry = { EXPENSES: fns.expenses, EXPENSE: fns.expense };
  Object.assign(globalThis, { CustomFunctions: { registry, Error: FunctionError, ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" } } });
});
afterAll(async () => {
  await f.sandbox.close();
  useExcelProfile(DEFAULT_PROFILE);
});

interface Shown {
  value: Scalar;
  /** What the grid draws for the cell. */
  text: string;
}

/** `formula` entered at A1 of a new workbook in Excel `profile`; every cell of its spill as held and as shown. */
async function spilled(profile: ProfileId, formula: string): Promise<Shown[][]> {
  useExcelProfile(profile);
  const excel = new FakeExcel();
  const entries = new Entries(excel, () => undefined);
  await entries.calculate("Sheet1", "A1", formula);
  const spill = excel.user.spillAt("Sheet1", "A1")!;
  const sheet = excel.model.sheet("Sheet1")!;
  return Array.from({ length: spill.rows }, (_, r) => Array.from({ length: spill.columns }, (_, c) => {
    const cell = sheet.cell(r, c);
    return { value: cell?.value ?? "", text: cell ? display(cell.value, cell.numberFormat) : "" };
  }));
}

/** The cells of the row whose first cell is `rowId`, by header. */
function rowOf(grid: Shown[][], rowId: string): Record<string, Shown> {
  const header = grid[0].map((c) => String(c.value));
  const row = grid.find((r) => r[0].value === rowId)!;
  return Object.fromEntries(header.map((h, i) => [h, row[i]]));
}

const READ = ["Date", "Created (UTC)", "Paid at (UTC)", "Amount", "Currency"] as const;
const texts = (row: Record<string, Shown>) => READ.map((h) => row[h].text);
const kinds = (row: Record<string, Shown>) => READ.map((h) => typeof row[h].value);

describe("SPEND.EXPENSES: what a person reads in the expense's row", () => {
  it("Office 2024: dates and timestamps as ISO text, the amount a number (16, with EUR beside it)", async () => {
    const row = rowOf(await spilled("office-2024", `=SPEND.EXPENSES("${sub}")`), id);
    expect(texts(row)).toEqual(["2026-10-27", "2026-10-27 14:05:00", "2026-10-28 09:30:15", "16", "EUR"]);
    expect(kinds(row)).toEqual(["string", "string", "string", "number", "string"]);
  });

  it.each<ProfileId>(["m365-2302", "m365-current", "web"])("%s: dates, timestamps and the amount are numbers shown with their formats", async (profile) => {
    const row = rowOf(await spilled(profile, `=SPEND.EXPENSES("${sub}")`), id);
    expect(texts(row)).toEqual(["2026-10-27", "2026-10-27 14:05:00", "2026-10-28 09:30:15", "16.00", "EUR"]);
    expect(kinds(row)).toEqual(["number", "number", "number", "number", "string"]);
  });

  it("Office 2024: no date or timestamp column holds a serial; every amount column holds numbers, and its SUM is the service's total", async () => {
    const grid = await spilled("office-2024", `=SPEND.EXPENSES("${sub}")`);
    const header = grid[0].map((c) => String(c.value));
    const column = (h: string) => grid.slice(1).map((r) => r[header.indexOf(h)].value);
    for (const h of ["Date", "Created (UTC)", "Paid at (UTC)"]) {
      expect([h, column(h).filter((v) => typeof v === "number")]).toEqual([h, []]);
      expect([h, column(h).filter((v) => v !== "" && !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(String(v)))]).toEqual([h, []]);
    }
    // SUM skips text: the column's numbers must add up to the service's amounts, every one of them.
    const all = f.sandbox.store.expensesOf(sub);
    const sum = (values: Scalar[]) => values.reduce<number>((total, v) => total + (typeof v === "number" ? v : 0), 0);
    expect(sum(column("Amount"))).toBeCloseTo(all.reduce((t, e) => t + e.amount, 0), 6);
    expect(column("Amount").filter((v) => typeof v !== "number")).toEqual([]);
    expect(sum(column("Net amount"))).toBeCloseTo(all.reduce((t, e) => t + (e.net_amount ?? 0), 0), 6);
  });
});

describe("SPEND.EXPENSE: one record, and one field", () => {
  it("Office 2024: the record as a header row and its row, read the same way; a date field as its ISO text", async () => {
    const record = await spilled("office-2024", `=SPEND.EXPENSE("${sub}", "${id}")`);
    expect(record).toHaveLength(2);
    expect(texts(rowOf(record, id))).toEqual(["2026-10-27", "2026-10-27 14:05:00", "2026-10-28 09:30:15", "16", "EUR"]);
    expect(await spilled("office-2024", `=SPEND.EXPENSE("${sub}", "${id}", "date")`)).toEqual([[{ value: "2026-10-27", text: "2026-10-27" }]]);
    expect(await spilled("office-2024", `=SPEND.EXPENSE("${sub}", "${id}", "paid_at")`)).toEqual([[{ value: "2026-10-28 09:30:15", text: "2026-10-28 09:30:15" }]]);
    expect(await spilled("office-2024", `=SPEND.EXPENSE("${sub}", "${id}", "amount")`)).toEqual([[{ value: 16, text: "16" }]]);
  });

  it.each<ProfileId>(["m365-2302", "m365-current", "web"])("%s: a date field and the amount are numbers shown with their formats", async (profile) => {
    const [[date]] = await spilled(profile, `=SPEND.EXPENSE("${sub}", "${id}", "date")`);
    const [[paid]] = await spilled(profile, `=SPEND.EXPENSE("${sub}", "${id}", "paid_at")`);
    const [[amount]] = await spilled(profile, `=SPEND.EXPENSE("${sub}", "${id}", "amount")`);
    expect([date.text, paid.text, amount.text]).toEqual(["2026-10-27", "2026-10-28 09:30:15", "16.00"]);
    expect([typeof date.value, typeof paid.value, amount.value]).toEqual(["number", "number", 16]);
  });
});

describe("a spilled timestamp handed back to a date argument", () => {
  it("Office 2024: a Created (UTC) text given as created_from lists from its day, as its serial did (a cell reference: test/workbench/formula-arguments)", async () => {
    useExcelProfile("office-2024");
    const all = f.sandbox.store.expensesOf(sub);
    const day = [...all.map((e) => e.created_at.slice(0, 10))].sort()[Math.floor(all.length / 2)];
    const from = await fns.expenses(sub, null, `${day} 23:59:59`, null, null, invocation());
    expect(from.slice(1).map((r) => r[0])).toEqual(all.filter((e) => e.created_at.slice(0, 10) >= day).map((e) => e.id));
  });

  it("only a timestamp written as the spill writes it: a time past 23:59:59 or a day the calendar lacks is refused as before", () => {
    expect(optionalDate("created_from", "2026-10-27 14:05:00")).toBe("2026-10-27");
    for (const text of ["2026-10-27 24:00:00", "2026-02-30 10:00:00", "2026-10-27T14:05:00", "2026-10-27 14:05", " 2026-10-27 14:05:00x"]) {
      expect(() => optionalDate("created_from", text)).toThrow(`created_from must be an Excel date or text written YYYY-MM-DD; got "${text.trim()}".`);
    }
  });
});
