/**
 * The parameters of each =SPEND list function as functions.json lists them, from its resource's declarations
 * (src/sheets/resources): the build writes them over the `...args` its JSDoc gives (tools/functions-metadata.js),
 * so a declared parameter reaches Excel's metadata with no line of src/functions to add.
 */
import { RESOURCE_KINDS, listFunctionOf } from "../src/sheets/resources";

/** One parameter as functions.json says it; every argument is typed any (args.ts reads each one). */
interface MetadataParameter {
  name: string;
  description: string;
  type: "any";
  optional?: true;
}

/** Each list function's id and its parameters, in the order Excel passes them. */
export function declaredParameters(): { id: string; parameters: MetadataParameter[] }[] {
  return RESOURCE_KINDS.map((kind) => {
    const spec = listFunctionOf(kind);
    return {
      id: spec.name,
      parameters: spec.args.map((arg) => ({ name: arg.arg, description: arg.help, type: "any" as const, ...(arg.required ? {} : { optional: true as const }) })),
    };
  });
}
