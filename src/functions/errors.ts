/** Every failure of a =SPEND.* function as a CustomFunctions.Error: the cell error of its kind (api/error-table.ts). */
import { shown } from "../api";

/** Excel's #VALUE! or #N/A with a message (the error indicator shows it). */
export function toFunctionError(error: unknown): CustomFunctions.Error {
  const { cell } = shown(error);
  return new CustomFunctions.Error(CustomFunctions.ErrorCode[cell.code], cell.message);
}
