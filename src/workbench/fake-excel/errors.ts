/** Errors shaped like OfficeExtension.Error: a `code` and Excel's wording. */

export type FakeExcelErrorCode =
  | "PropertyNotLoaded"
  | "InvalidArgument"
  | "ItemNotFound"
  | "ItemAlreadyExists"
  | "RequestPayloadSizeLimitExceeded"
  | "ResponsePayloadSizeLimitExceeded"
  | "InvalidOperationInCellEditMode"
  | "InvalidOperation";

export class FakeExcelError extends Error {
  override readonly name = "RichApi.Error";
  constructor(readonly code: FakeExcelErrorCode, message: string) {
    super(message);
  }
}

export const notLoaded = (property: string) =>
  new FakeExcelError(
    "PropertyNotLoaded",
    `The property '${property}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
  );
