/**
 * Issue 43 (4): the Load form showed the service's words (`cost_center`, `approved_by`, `allowance_segments`,
 * `associated_fee`, states as sent). What a person sees, for every resource, in full: each shown field's label,
 * each list's texts, the expand boxes' texts; and beneath each text the service's own value, which is what the
 * form sends (docs/labels.md). The real taskpane on linkedom's DOM, in a child process (form-probe.ts) because
 * jest cannot load linkedom's ESM-only dependencies.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../support/process";

jest.setTimeout(60_000);

type Pair = [value: string, text: string];
interface Seen { resource: Pair; fields: { label: string; options?: Pair[] }[]; expand: { legend: string; boxes: Pair[] } }

let seen: Seen[];
beforeAll(async () => {
  const { stdout } = await promisify(execFile)(join(ROOT, "node_modules/.bin/tsx"), [join(__dirname, "form-probe.ts")], { cwd: ROOT });
  seen = stdout.trim().split("\n").map((line) => JSON.parse(line) as Seen);
});

const WHAT = {
  label: "What",
  options: [["expenses", "Expenses"], ["allowances", "Allowances"], ["cards", "Corporate cards"], ["movements", "Card movements (billing period)"]],
};
const STATES: Pair[] = [["pending", "Pending approval"], ["approved", "Approved"], ["accounted", "Accounted"], ["paid", "Paid"], ["rejected", "Rejected"]];
const SHOW = "Show beside the ids";

const EXPECTED: Seen[] = [
  {
    resource: ["expenses", "Expenses"],
    fields: [WHAT, { label: "Subsidiary ID" }, { label: "State", options: [["", "(any)"], ["draft", "Draft"], ...STATES] }, { label: "Created from" }, { label: "Created to" }],
    expand: { legend: SHOW, boxes: [["cost_center", "Cost center"], ["category", "Category"], ["user", "Employee"], ["approved_by", "Approved by"], ["fund", "Fund"], ["fare", "Mileage fare"]] },
  },
  {
    resource: ["allowances", "Allowances"],
    fields: [WHAT, { label: "Subsidiary ID" }, { label: "State", options: [["", "(any)"], ...STATES] }],
    expand: { legend: SHOW, boxes: [["beneficiary", "Beneficiary"], ["allowance_segments", "Allowance segments"], ["documents", "Documents"]] },
  },
  {
    resource: ["cards", "Corporate cards"],
    fields: [WHAT],
    expand: { legend: SHOW, boxes: [["bank", "Bank"], ["user", "Card holder"]] },
  },
  {
    resource: ["movements", "Card movements (billing period)"],
    fields: [
      WHAT, { label: "Card ID" }, { label: "Billing period ID" },
      { label: "Movement type", options: [["", "(any)"], ["payment", "Payment to the card"], ["expense", "Expense"], ["associated_fee", "Associated fee"], ["other_fee", "Other fee"]] },
      { label: "Reconciled", options: [["", "(any)"], ["true", "Reconciled"], ["false", "Not reconciled"]] },
    ],
    expand: { legend: "Reconciliation is always shown for movements", boxes: [] },
  },
] as Seen[];

it.each(EXPECTED.map((e) => [e.resource[1], e] as const))("the form for %s reads in finance words, each over the service's value", (_name, expected) => {
  expect(seen.find((s) => s.resource[0] === expected.resource[0])).toEqual(expected);
});

it("every resource the form offers was looked at", () => {
  expect(seen.map((s) => s.resource[0])).toEqual(EXPECTED.map((e) => e.resource[0]));
});

it("no text a person reads in the form is a service word (snake_case or all lower case)", () => {
  const texts = seen.flatMap((s) => [s.resource[1], s.expand.legend, ...s.expand.boxes.map((b) => b[1]), ...s.fields.flatMap((f) => [f.label, ...(f.options ?? []).map((o) => o[1])])]);
  expect(texts.filter((t) => t !== "(any)" && (/_/.test(t) || t === t.toLowerCase()))).toEqual([]);
});
