/**
 * What a =SPEND.* cell shows for each failure: the error value (#VALUE! means "fix the formula or the
 * connection", #N/A means "try again later or the record is not there") and the whole message of its indicator.
 */
import {
  AuthError, BaseUrlError, CancelledError, NetworkError, NotConnectedError, NotFoundError, PaginationError, RateLimitError, RejectedError, SchemaError,
  ServerError, TimeoutError,
} from "../../src/api";
import { ArgumentError } from "../../src/functions/args";
import { toFunctionError } from "../../src/functions/errors";
import { DeadlineError, PreviewError } from "../../src/functions/runtime";
import { installCustomFunctionsStub } from "../support/custom-functions";

installCustomFunctionsStub();

const request = { method: "GET", url: "/v1/x/" };
const shown = (error: unknown) => {
  const e = toFunctionError(error) as unknown as { code: string; message?: string };
  return [e.code, e.message];
};

it("a mistake the user can fix shows #VALUE! with its own message", () => {
  expect(shown(new ArgumentError("state must be one of paid; got \"x\"."))).toEqual(["#VALUE!", "state must be one of paid; got \"x\"."]);
  expect(shown(new NotConnectedError("Not connected: open the taskpane and connect."))).toEqual(["#VALUE!", "Not connected: open the taskpane and connect."]);
  expect(shown(new AuthError("The API key was refused.", 403, "Invalid key", request))).toEqual(["#VALUE!", "The API key was refused."]);
});

it("a refused request shows the service's reason, or the client's message when the service gave none", () => {
  expect(shown(new RejectedError("The service refused the request.", 400, "state: not a valid choice", request))).toEqual(["#VALUE!", "state: not a valid choice"]);
  expect(shown(new RejectedError("The service refused the request.", 400, "", request))).toEqual(["#VALUE!", "The service refused the request."]);
});

it("a missing record is #N/A saying what may be missing", () => {
  expect(shown(new NotFoundError("Not found.", 404, "Not found.", request))).toEqual(["#N/A", "Not found: no such record, subsidiary, card or billing period for this enterprise."]);
});

it("a busy service is #N/A asking to try again", () => {
  expect(shown(new RateLimitError("Too many requests.", 429, "", request, 1000))).toEqual(["#N/A", "The service is limiting requests; try again in a moment (Refresh data)."]);
});

it("a service out of reach is #N/A saying so, with the cause", () => {
  const causes = [
    new NetworkError("connection refused", request),
    new TimeoutError("no answer in 30 s", request, 30000),
    new ServerError("the service failed (500)", 500, "", request),
    new DeadlineError("no answer within 60 s. Try again with Refresh data."),
    new CancelledError("cancelled"),
  ];
  for (const cause of causes) expect(shown(cause)).toEqual(["#N/A", `The service could not be reached: ${cause.message}`]);
});

it("anything else is #N/A with its own message: preview, a malformed answer, a wrong base URL, a broken list, a plain value", () => {
  const preview = new PreviewError("Formula preview does not call the service: press Enter to load.");
  expect(shown(preview)).toEqual(["#N/A", preview.message]);
  const schema = new SchemaError("The service's answer is not in the expected shape.", "expenses", "results[0].amount", "x");
  expect(shown(schema)).toEqual(["#N/A", schema.message]);
  const base = new BaseUrlError("Nothing at this base URL answers as the service.", 404, "", request);
  expect(shown(base)).toEqual(["#N/A", base.message]);
  expect(shown(new PaginationError("page 3 repeats page 2", 3))).toEqual(["#N/A", "page 3 repeats page 2"]);
  expect(shown("boom")).toEqual(["#N/A", "boom"]);
});

it("a thrown value that is no error (null, undefined, a number) is #N/A with that value as text", () => {
  expect([shown(null), shown(undefined), shown(42)]).toEqual([["#N/A", "null"], ["#N/A", "undefined"], ["#N/A", "42"]]);
});
