/**
 * functions.json as the build emits it (webpack.config.js): custom-functions-metadata's output from the JSDoc,
 * each list function's parameters written from its resource's declarations, data types allowed. The tests read
 * this, never the generator's raw output, so they see what Excel is told.
 */
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { declaredParameters } from "../../tools/functions-parameters";

interface Rewrites {
  withDataTypes(json: string): string;
  withDeclaredParameters(json: string, declared: ReturnType<typeof declaredParameters>): string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rewrites = (require("../../tools/functions-metadata.js") as { FunctionsDataTypes: Rewrites }).FunctionsDataTypes;

/** The generator's errors (none expected) and the metadata the build would emit. */
export async function builtMetadata(): Promise<{ errors: string[]; metadataJson: string }> {
  const generated = await generateCustomFunctionsMetadata("src/functions/functions.ts");
  return { errors: generated.errors, metadataJson: rewrites.withDataTypes(rewrites.withDeclaredParameters(generated.metadataJson, declaredParameters())) };
}
