/**
 * What Excel hands a custom function for a cell its formula refers to, by the function's metadata
 * (functions.json) and this Excel:
 * - A data type (a formatted number, an entity) is handed whole to a parameter typed `any` when the metadata
 *   sets allowCustomDataForDataTypeAny and this Excel integrates data types with custom functions
 *   (CustomFunctionsRuntime 1.4: "Requirement set 1.4 includes custom functions integration with data types";
 *   "custom functions accept data types as both input and output values":
 *   https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts). Otherwise the
 *   function is handed its basic value: a formatted number's number; an entity's is #VALUE!, an error.
 * - An error is handed only to a function whose metadata sets allowErrorForDataTypeAny ("If true, your custom
 *   functions can process errors as input values", https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json).
 *   What Excel does without it is not written there: strict reading, the function is not called and the formula
 *   shows the error, as Excel's own functions pass an error on.
 */
import type { RichValue, Scalar } from "./fake-excel/model";
import { isSetSupported, type ExcelProfile } from "./fake-excel/profiles";

/** The parts of functions.json this reads. */
export interface FunctionsMetadata {
  allowCustomDataForDataTypeAny?: boolean;
  allowErrorForDataTypeAny?: boolean;
  functions: { id: string; parameters: { name: string; type?: string }[] }[];
}

/** An argument as handed to the function, or the error the formula shows instead of calling it. */
export type Handed = { value: unknown } | { error: string; message: string };

const isRich = (v: Scalar | RichValue | null): v is RichValue => v !== null && typeof v === "object";

/**
 * The value a function is handed for the cell `ref` holding `held`, as parameter `index` of function `id`.
 * Without metadata (the workbench could not read functions.json) nothing is handed whole: plain values.
 */
export function handedArgument(profile: ExcelProfile, metadata: FunctionsMetadata | null, id: string, index: number, ref: string,
  held: Scalar | RichValue | null): Handed {
  if (!isRich(held)) return { value: held };
  const parameter = metadata?.functions.find((f) => f.id === id)?.parameters[index];
  const anyParameter = parameter?.type === undefined || parameter.type === "any";
  const whole = metadata?.allowCustomDataForDataTypeAny === true && anyParameter && isSetSupported(profile, "CustomFunctionsRuntime", "1.4");
  const error = held.type === "Error" ? String(held.basicValue) : !whole && (held.type === "Entity" || held.type === "LinkedEntity") ? "#VALUE!" : null;
  if (error !== null && !(metadata?.allowErrorForDataTypeAny === true && anyParameter)) {
    return {
      error,
      message: `${error} ${ref} holds ${error === String(held.basicValue) ? error : `a data type whose value is ${error}`}: Excel hands no error to a custom ` +
        "function whose metadata does not set allowErrorForDataTypeAny, and the formula shows the error.",
    };
  }
  if (whole || held.type === "Error") return { value: structuredClone(held) };
  return { value: held.basicValue };
}
