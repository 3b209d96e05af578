/**
 * One table says what each kind of error shows a person: the taskpane's sentence and a =SPEND.* cell's error
 * (src/api/error-table.ts). Every error the add-in throws on purpose is of the SpendSyncError family, so its
 * message is redacted whoever built it, and the table knows it by its name.
 */
import * as api from "../../src/api";
import { shown } from "../../src/api";
import { SetUpTimeoutError } from "../../src/commands/when-ready";
import { ArgumentError } from "../../src/functions/args";
import { DeadlineError, PreviewError } from "../../src/functions/runtime";
import { WorkbookError } from "../../src/sheets";
import { PlanChangedError } from "../../src/sync/execute";
import { SyncSetupError } from "../../src/sync/sync-table";
import { UnsupportedExcelError } from "../../src/taskpane/host-support";

const request = { method: "GET", url: "/expenses" };
const KEY = "sk_live_0123456789abcdef0123456789abcdef";

describe("what each kind of error shows", () => {
  const hint = " Check the base URL, your network, or use the dev server's /proxy route for a service without CORS.";
  it.each<[string, unknown, string, string, string]>([
    ["a cancel", new api.CancelledError("Stopped."), "Cancelled.", "notAvailable", "The service could not be reached: Stopped."],
    ["the key refused", new api.AuthError("The key was refused.", 401, "", request), "The key was refused.", "invalidValue", "The key was refused."],
    ["not the service", new api.BaseUrlError("Not the service.", 404, "", request), "Not the service.", "notAvailable", "Not the service."],
    ["no answer", new api.NetworkError("No answer.", request), `No answer.${hint}`, "notAvailable", "The service could not be reached: No answer."],
    ["a timeout", new api.TimeoutError("Too slow.", request, 1000), `Too slow.${hint}`, "notAvailable", "The service could not be reached: Too slow."],
    ["not found, the service's words", new api.NotFoundError("Not found.", 404, "Expense not found", request),
      'Not found: check the ids (subsidiary, card, billing period, record). The service said: "Expense not found"', "notAvailable",
      "Not found: no such record, subsidiary, card or billing period for this enterprise."],
    ["not found, no words", new api.NotFoundError("Not found.", 404, "", request), "Not found: check the ids (subsidiary, card, billing period, record).", "notAvailable",
      "Not found: no such record, subsidiary, card or billing period for this enterprise."],
    ["a refusal with the service's words", new api.RejectedError("Refused.", 400, "state is invalid", request), "Refused.", "invalidValue", "state is invalid"],
    ["a refusal without", new api.RejectedError("Refused.", 400, "", request), "Refused.", "invalidValue", "Refused."],
    ["a rate limit", new api.RateLimitError("Slow down.", 429, "", request, 1000), "Slow down.", "notAvailable", "The service is limiting requests; try again in a moment (Refresh data)."],
    ["the service's failure", new api.ServerError("It failed.", 502, "", request), "It failed.", "notAvailable", "The service could not be reached: It failed."],
    ["not connected", new api.NotConnectedError("Connect first."), "Connect first.", "invalidValue", "Connect first."],
    ["an answer for another record", new api.WrongRecordError("The service answered for another record (\"b\").", "a", '"b"'),
      "The service answered for another record (\"b\"). Try again, and tell your Spend Sync contact if it happens again.", "notAvailable",
      "The service answered for another record (\"b\")."],
    ["a wrong argument", new ArgumentError("state must be one of …"), "state must be one of …", "invalidValue", "state must be one of …"],
    ["a cell's deadline", new DeadlineError("No answer in 20 s."), "No answer in 20 s.", "notAvailable", "The service could not be reached: No answer in 20 s."],
    ["the workbook's refusal", new WorkbookError("sheet-taken", "The sheet 'X' already holds data."), "The sheet 'X' already holds data.", "notAvailable", "The sheet 'X' already holds data."],
    ["any other error", new TypeError("boom"), "boom", "notAvailable", "boom"],
    ["not an error", "plain text", "plain text", "notAvailable", "plain text"],
  ])("%s", (_what, error, taskpane, code, message) => {
    expect(shown(error)).toEqual({ taskpane, cell: { code, message } });
  });

  it("knows an error by its own name only, not by one it inherits or a property of that name elsewhere", () => {
    expect(shown({ name: "toString", message: "m" })).toEqual({ taskpane: "m", cell: { code: "notAvailable", message: "m" } });
    expect(shown(null)).toEqual({ taskpane: "null", cell: { code: "notAvailable", message: "null" } });
  });
});

describe("one family", () => {
  beforeAll(() => api.registerSecret(KEY));
  afterAll(() => api.forgetSecret(KEY));

  it.each<[string, () => Error]>([
    ["NotConnectedError", () => new api.NotConnectedError(`m ${KEY}`)],
    ["SyncSetupError", () => new SyncSetupError(`m ${KEY}`)],
    ["PlanChangedError", () => new PlanChangedError(`m ${KEY}`)],
    ["DeadlineError", () => new DeadlineError(`m ${KEY}`)],
    ["PreviewError", () => new PreviewError(`m ${KEY}`)],
    ["ArgumentError", () => new ArgumentError(`m ${KEY}`)],
    ["WorkbookError", () => new WorkbookError("internal", `m ${KEY}`)],
    ["InvalidRequestError", () => new api.InvalidRequestError(`m ${KEY}`)],
    ["WrongRecordError", () => new api.WrongRecordError(`m ${KEY}`, "a", `"${KEY}"`)],
  ])("%s is a SpendSyncError: its message never carries the key", (name, make) => {
    const error = make();
    expect([error instanceof api.SpendSyncError, error.name, error.message.includes(KEY)]).toEqual([true, name, false]);
    // The id an answer named is kept apart from the message: redacted too.
    if (error instanceof api.WrongRecordError) expect(error.answered).not.toContain(KEY);
  });

  it("the errors built from a fixed sentence are of the family too", () => {
    expect(new SetUpTimeoutError()).toBeInstanceOf(api.SpendSyncError);
    expect(new UnsupportedExcelError([])).toBeInstanceOf(api.SpendSyncError);
  });
});
