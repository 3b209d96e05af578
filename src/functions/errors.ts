/** Every failure of a =SPEND.* function as a CustomFunctions.Error with a message a finance user understands. */
import {
  AuthError, CancelledError, NetworkError, NotConnectedError, NotFoundError, RateLimitError, RejectedError, ServerError, TimeoutError,
} from "../api";
import { ArgumentError } from "./args";
import { DeadlineError } from "./runtime";

/** Excel's #VALUE! or #N/A with a message (the error indicator shows it). */
export function toFunctionError(error: unknown): CustomFunctions.Error {
  const { Error: FunctionError, ErrorCode } = CustomFunctions;
  const message = (error as Error)?.message ?? String(error);
  if (error instanceof ArgumentError || error instanceof NotConnectedError || error instanceof AuthError) {
    return new FunctionError(ErrorCode.invalidValue, message);
  }
  if (error instanceof RejectedError) return new FunctionError(ErrorCode.invalidValue, error.serverMessage || message);
  if (error instanceof NotFoundError) return new FunctionError(ErrorCode.notAvailable, "Not found: no such record, subsidiary, card or billing period for this enterprise.");
  if (error instanceof RateLimitError) return new FunctionError(ErrorCode.notAvailable, "The service is limiting requests; try again in a moment (Refresh data).");
  if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof ServerError || error instanceof DeadlineError || error instanceof CancelledError) {
    return new FunctionError(ErrorCode.notAvailable, `The service could not be reached: ${message}`);
  }
  // Everything else (formula preview, a malformed answer, a broken list) is #N/A with its own message.
  return new FunctionError(ErrorCode.notAvailable, message);
}
