/**
 * Every error the client throws says its kind by name (the base classes too), as a log line or a stored
 * message shows it ("TimeoutError: The service did not answer…"); and the outcome of a request is unknown
 * exactly after a failure that may have come after the service acted (no answer, a timeout, the service's own
 * failure), never after a refusal or a cancel.
 */
import * as api from "../../src/api";

const request = { method: "GET", url: "/public/v1/x/" };

describe("each error names its kind", () => {
  it.each<[string, () => Error]>([
    ["SpendSyncError", () => new api.SpendSyncError("m")],
    ["HttpError", () => new api.HttpError("m", 418, "", request)],
    ["AuthError", () => new api.AuthError("m", 403, "", request)],
    ["NotFoundError", () => new api.NotFoundError("m", 404, "", request)],
    ["BaseUrlError", () => new api.BaseUrlError("m", 404, "", request)],
    ["RejectedError", () => new api.RejectedError("m", 400, "", request)],
    ["RateLimitError", () => new api.RateLimitError("m", 429, "", request, null)],
    ["ServerError", () => new api.ServerError("m", 500, "", request)],
    ["RedirectError", () => new api.RedirectError("m", 302, "", request)],
    ["NetworkError", () => new api.NetworkError("m", request)],
    ["TimeoutError", () => new api.TimeoutError("m", request, 1000)],
    ["CancelledError", () => new api.CancelledError("m")],
    ["CrossOriginError", () => new api.CrossOriginError("m", "https://x.example")],
    ["DataMovedError", () => new api.DataMovedError("m", 1, 0)],
    ["PaginationError", () => new api.PaginationError("m", 2)],
    ["SchemaError", () => new api.SchemaError("m", "card", "id", "1")],
    ["AnswerTooLargeError", () => new api.AnswerTooLargeError("m", "card")],
    ["InvalidRequestError", () => new api.InvalidRequestError("m")],
  ])("%s", (name, make) => {
    const error = make();
    expect(error.name).toBe(name);
    expect(String(error)).toBe(`${name}: m`);
    expect(error.stack?.split("\n")[0]).toBe(`${name}: m`);
  });
});
