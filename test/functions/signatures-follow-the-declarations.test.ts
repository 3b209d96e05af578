/**
 * Excel learns a =SPEND list function's arguments from functions.json; the add-in checks them from the resource's
 * declarations (sheets/resources). The build writes the first from the second (tools/functions-metadata.js): every
 * declared =SPEND argument, in order, required or optional as declared, with the description a person reads in
 * Excel's formula help. A function whose JSDoc lists its own parameters (a second place to keep in step), or a
 * resource whose function functions.ts lacks, fails the build.
 */
import { RESOURCE_KINDS } from "../../src/sheets";
import { listFunctionOf } from "../../src/sheets/resources";
import { declaredParameters } from "../../tools/functions-parameters";
import { builtMetadata } from "../support/functions-metadata";

interface MetaParam { name: string; description: string; optional?: boolean; repeating?: boolean }
interface MetaFunction { id: string; parameters: MetaParam[] }

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withDeclaredParameters } = (require("../../tools/functions-metadata.js") as {
  FunctionsDataTypes: { withDeclaredParameters(json: string, declared: ReturnType<typeof declaredParameters>): string };
}).FunctionsDataTypes;

let functions: MetaFunction[];
beforeAll(async () => {
  const result = await builtMetadata();
  expect(result.errors).toEqual([]);
  functions = (JSON.parse(result.metadataJson) as { functions: MetaFunction[] }).functions;
}, 60_000);

it.each(RESOURCE_KINDS)("=SPEND's %s function takes the arguments its declarations offer, as Excel is told", (kind) => {
  const spec = listFunctionOf(kind);
  const fn = functions.find((f) => f.id === spec.name);
  expect(fn).toBeDefined();
  const told = fn!.parameters.map((p) => ({ name: p.name, optional: p.optional === true, description: p.description, repeating: p.repeating === true }));
  const declared = spec.args.map((a) => ({ name: a.arg, optional: !a.required, description: a.help, repeating: false }));
  expect(told).toEqual(declared);
});

it("every list function Excel is told of is a resource's", () => {
  const listNames = RESOURCE_KINDS.map((kind) => listFunctionOf(kind).name);
  // The record functions (one record by id) are the others: each is the singular of a list.
  const others = functions.map((f) => f.id).filter((id) => !listNames.includes(id));
  expect(others.sort()).toEqual(["ALLOWANCE", "CARD", "EXPENSE"]);
});

describe("the build refuses metadata it cannot make from the declarations", () => {
  const generated = (fns: object[]) => JSON.stringify({ functions: fns });
  const declared = [{ id: "MOVEMENTS", parameters: [{ name: "card_id", description: "The card's id.", type: "any" as const }] }];

  it("a list function whose JSDoc names its own parameters: two places to keep in step", () => {
    const own = generated([{ id: "MOVEMENTS", parameters: [{ name: "card_id", type: "any" }, { name: "type", type: "any", optional: true }] }]);
    expect(() => withDeclaredParameters(own, declared)).toThrow(
      "MOVEMENTS takes its parameters from its resource's declarations: its JSDoc must take ...args, not card_id, type.");
  });

  it("a resource whose function functions.ts lacks", () => {
    expect(() => withDeclaredParameters(generated([]), declared)).toThrow("functions.ts has no function MOVEMENTS, which a resource declares.");
  });
});
