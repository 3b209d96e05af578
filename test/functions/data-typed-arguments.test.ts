/**
 * Every argument of every =SPEND function takes what Excel hands it (issue 42). functions.json sets
 * allowCustomDataForDataTypeAny and types every parameter `any`, so a cell holding a data type arrives as its
 * cell value object: a date another =SPEND formula spilled is a FormattedNumber (ExcelApi 1.16) or a Double with
 * its numberFormat (1.19). Rule: each form gives what a plain cell holding the same basic value gives (the same
 * requests, the same result or the same message); an entity, a linked data type or an error is refused with a
 * message naming the argument. The parameters come from the generated metadata and the resources' ArgSpecs, so
 * a new parameter is covered (or, without a sample below, fails this test) without editing it.
 */
import { Session, memoryStorage } from "../../src/api";
import * as functions from "../../src/functions/functions";
import { useSession } from "../../src/functions/runtime";
import { RESOURCE_KINDS } from "../../src/sheets";
import { listFunctionOf, type ArgSpec } from "../../src/sheets/resources";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { FunctionError, installCustomFunctionsStub, invocation } from "../support/custom-functions";
import { withSandbox, type SandboxFixture } from "../support/sandbox";
import { builtMetadata } from "../support/functions-metadata";

installCustomFunctionsStub();

interface Parameter { name: string; type: string }
interface FunctionMeta { id: string; parameters: Parameter[] }
type Fn = (...args: unknown[]) => Promise<unknown>;
type Kind = ArgSpec["type"] | "field";

let f: SandboxFixture;
let metadata: { allowCustomDataForDataTypeAny?: boolean; functions: FunctionMeta[] };
let requests: string[];

beforeAll(async () => {
  f = await withSandbox();
  // Plain results: the comparison is of what each argument makes of its value, in one form of results.
  useExcelProfile("office-2024");
  metadata = JSON.parse((await builtMetadata()).metadataJson);
});
afterAll(async () => {
  await f.sandbox.close();
  useExcelProfile(DEFAULT_PROFILE);
});

/** A call with a fresh session (no cached result): the requests it sent and its result or its error. */
async function outcome(fn: Fn, args: unknown[]): Promise<{ requests: string[]; value?: unknown; error?: string; message?: string }> {
  requests = [];
  const session = new Session(memoryStorage(), { onRequest: (e) => requests.push(e.url), retry: { retries: 0 } });
  session.connect({ baseUrl: f.sandbox.baseUrl, enterpriseId: f.enterprise.id, apiKey: f.enterprise.api_key });
  useSession(session, { batching: false });
  try {
    const value = await fn(...args, invocation());
    return { requests, value };
  } catch (e) {
    const error = e as FunctionError;
    return { requests, error: error.code, message: error.message };
  }
}

/** What a parameter takes: a list function's from its resource's ArgSpec, a record function's from its name. */
function kindOf(fnId: string, name: string): { kind: Kind; values?: readonly string[] } {
  const list = RESOURCE_KINDS.map(listFunctionOf).find((spec) => spec.name === fnId);
  const spec = list?.args.find((a) => a.arg === name);
  if (spec) return { kind: spec.type, values: spec.values };
  if (!list && name.endsWith("_id")) return { kind: "id" };
  if (!list && name === "field") return { kind: "field" };
  throw new Error(`No sample for ${fnId}(${name}): say in this test what the parameter takes.`);
}

/** A valid value of each parameter, so that a call differs from a working one in the argument tried only. */
function validOf(fnId: string, name: string): unknown {
  const sub = f.enterprise.subsidiaries[0];
  const card = f.enterprise.cards.find((c) => c.billing_periods.length > 0)!;
  const ids: Record<string, string> = {
    subsidiary_id: sub, card_id: card.id, billing_period_id: card.billing_periods[0],
    allowance_id: f.sandbox.store.allowancesOf(sub)[0].id, expense_id: f.sandbox.store.expensesOf(sub)[0].id,
  };
  const { kind, values } = kindOf(fnId, name);
  if (kind === "id") return ids[name];
  if (kind === "field") return fnId === "CARD" ? "last_four_digits" : "state";
  if (kind === "boolean") return true;
  if (kind === "date") return "2026-01-01";
  return values?.[0];
}

/** Basic values tried in each parameter: its valid value, and one of each type (a date serial among them). */
const samplesOf = (fnId: string, name: string): unknown[] => [validOf(fnId, name), 46_023, "nonsense", true, ""];

/** Every form Excel may hand a cell holding `basic` in: plain, a 1x1 range, each cell value object of its type. */
function formsOf(basic: unknown): [string, unknown][] {
  const objects: [string, unknown][] =
    typeof basic === "number" ? [
      ["Double", { type: "Double", basicValue: basic }],
      ["Double with a date format", { type: "Double", basicValue: basic, numberFormat: "yyyy-mm-dd" }],
      ["FormattedNumber", { type: "FormattedNumber", basicValue: basic, numberFormat: "#,##0.00" }],
    ] : typeof basic === "boolean" ? [["Boolean", { type: "Boolean", basicValue: basic }]]
      : basic === "" ? [["Empty", { type: "Empty", basicValue: "" }], ["String of no characters", { type: "String", basicValue: "" }]]
        : [["String", { type: "String", basicValue: basic }]];
  return [["1x1 range", [[basic]]], ...objects, ...objects.map(([form, o]): [string, unknown] => [`${form} in a 1x1 range`, [[o]]])];
}

const REFUSED: [string, unknown, RegExp][] = [
  ["an entity", { type: "Entity", text: "Expense 42", properties: { ID: { type: "String", basicValue: "x" } }, basicType: "Error", basicValue: "#VALUE!" },
    /refers to a cell that holds a data type "Expense 42" \(Entity\), not a value/],
  ["a linked data type", { type: "LinkedEntity", text: "Microsoft", basicType: "Error", basicValue: "#VALUE!", id: { domainId: "x", entityId: "y", serviceId: 268 } },
    /refers to a cell that holds a data type "Microsoft" \(LinkedEntity\), not a value/],
  ["an error", { type: "Error", basicType: "Error", basicValue: "#N/A", errorType: "NotAvailable" }, /refers to a cell holding the error #N\/A/],
];

it("functions.json hands data types to every parameter: allowCustomDataForDataTypeAny, each parameter typed any", () => {
  expect(metadata.allowCustomDataForDataTypeAny).toBe(true);
  for (const fn of metadata.functions) for (const p of fn.parameters) expect([fn.id, p.name, p.type]).toEqual([fn.id, p.name, "any"]);
});

it("every parameter of every function × every cell value form: the plain cell's requests and result, or its message", async () => {
  let compared = 0;
  for (const fn of metadata.functions) {
    const call = (functions as unknown as Record<string, Fn>)[fn.id.toLowerCase()];
    const valid = fn.parameters.map((p) => validOf(fn.id, p.name));
    for (const [i, p] of fn.parameters.entries()) {
      const withArg = (v: unknown) => valid.map((x, j) => (j === i ? v : x));
      for (const basic of samplesOf(fn.id, p.name)) {
        const plain = await outcome(call, withArg(basic));
        for (const [form, value] of formsOf(basic)) {
          expect([fn.id, p.name, form, await outcome(call, withArg(value))]).toEqual([fn.id, p.name, form, plain]);
          compared++;
        }
      }
      for (const [what, value, message] of REFUSED) {
        for (const form of [value, [[value]]]) {
          const refused = await outcome(call, withArg(form));
          expect([fn.id, p.name, what, refused]).toEqual([fn.id, p.name, what, { requests: [], error: "#VALUE!", message: expect.stringMatching(message) }]);
          expect(refused.message!.startsWith(`${p.name} `)).toBe(true);
        }
      }
    }
  }
  // Per parameter, 21 forms over its 5 samples (3 for a text or TRUE, 7 for a number, 5 for an empty cell): a
  // parameter or a form gone from the loops shows here.
  expect(compared).toBe(metadata.functions.flatMap((fn) => fn.parameters).length * 21);
});

it("a date another =SPEND formula spilled, as this Excel hands it, filters as the date it shows", async () => {
  const sub = f.enterprise.subsidiaries[0];
  const day = f.sandbox.store.expensesOf(sub)[0].created_at.slice(0, 10);
  const serial = Date.parse(`${day}T00:00:00Z`) / 86_400_000 + 25569;
  const asText = await outcome(functions.expenses as Fn, [sub, null, day, day, null]);
  expect(asText.error).toBeUndefined();
  expect((asText.value as unknown[]).length).toBeGreaterThan(1);
  for (const spilled of [{ type: "FormattedNumber", basicValue: serial, numberFormat: "yyyy-mm-dd" }, { type: "Double", basicValue: serial, numberFormat: "yyyy-mm-dd" }]) {
    expect(await outcome(functions.expenses as Fn, [sub, null, spilled, [[spilled]], null])).toEqual(asText);
  }
});
