/**
 * The errors the in-memory Excel answers, with Excel's codes (Excel.ErrorCodes in @types/office-js) and the
 * HTTP status each travels with on the wire; Microsoft's client turns the answer into an OfficeExtension.Error.
 */

export type FakeExcelErrorCode =
  | "InvalidArgument"
  | "ItemNotFound"
  | "ItemAlreadyExists"
  | "RequestPayloadSizeLimitExceeded"
  | "ResponsePayloadSizeLimitExceeded"
  | "InvalidOperationInCellEditMode"
  | "InvalidOperation"
  | "InvalidObjectPath"
  | "ApiNotFound"
  | "MergedRangeConflict"
  | "RangeExceedsLimit"
  | "OperationCellsExceedLimit"
  | "GeneralException";

const HTTP_STATUS: Record<FakeExcelErrorCode, number> = {
  InvalidArgument: 400,
  ItemNotFound: 404,
  ItemAlreadyExists: 409,
  RequestPayloadSizeLimitExceeded: 413,
  ResponsePayloadSizeLimitExceeded: 413,
  InvalidOperationInCellEditMode: 409,
  InvalidOperation: 400,
  InvalidObjectPath: 400,
  ApiNotFound: 404,
  MergedRangeConflict: 400,
  RangeExceedsLimit: 400,
  OperationCellsExceedLimit: 400,
  GeneralException: 500,
};

export class FakeExcelError extends Error {
  override readonly name = "RichApi.Error";
  constructor(readonly code: FakeExcelErrorCode, message: string) {
    super(message);
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code];
  }
}
