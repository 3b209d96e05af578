/**
 * Ribbon buttons pressed while the add-in is still starting, or after its start failed: the work waits for the
 * set-up, and the button's event is always completed (else Office queues every later press behind it).
 */
import { SET_UP_WAIT_MS, SetUpTimeoutError, whenReady, type CommandFailure } from "../../src/commands/when-ready";

/** A promise settled by hand: the set-up "finishes" when the test says so, not after a delay. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

/** Lets every already-settled promise callback run. */
const settle = () => new Promise((r) => setImmediate(r));

function event() {
  const completed = jest.fn();
  return { completed, event: { completed } as unknown as Office.AddinCommands.Event };
}

it("a command pressed before set-up completes waits for it, then runs with the set-up's result and completes", async () => {
  const setUp = deferred<{ session: string }>();
  const ran: string[] = [];
  const reports: CommandFailure[] = [];
  const handler = whenReady(setUp.promise, async (app) => void ran.push(app.session), (f) => reports.push(f));
  const press = event();
  handler(press.event);
  await settle();
  expect(ran).toEqual([]);
  expect(press.completed).not.toHaveBeenCalled();

  setUp.resolve({ session: "the shared session" });
  await settle();
  expect(ran).toEqual(["the shared session"]);
  expect(press.completed).toHaveBeenCalledTimes(1);
  expect(reports).toEqual([]);
});

it("a command pressed when set-up threw still completes its event, and the set-up error is reported", async () => {
  const setUp = deferred<never>();
  const failure = new Error("This Excel lacks ExcelApi 1.13 (to load and sync tables), so Spend Sync can't run here.");
  const reports: CommandFailure[] = [];
  const work = jest.fn();
  const handler = whenReady(setUp.promise, work, (f) => reports.push(f));
  setUp.reject(failure);
  const first = event();
  const second = event();
  handler(first.event);
  handler(second.event);
  await settle();
  expect(work).not.toHaveBeenCalled();
  expect(first.completed).toHaveBeenCalledTimes(1);
  expect(second.completed).toHaveBeenCalledTimes(1);
  expect(reports).toEqual([{ stage: "set-up", error: failure }, { stage: "set-up", error: failure }]);
});

it("a command that fails after set-up completes its event and reports the command's own error", async () => {
  const failure = new Error("no table");
  const reports: CommandFailure[] = [];
  const press = event();
  whenReady(Promise.resolve({}), () => Promise.reject(failure), (f) => reports.push(f))(press.event);
  await settle();
  expect(press.completed).toHaveBeenCalledTimes(1);
  expect(reports).toEqual([{ stage: "command", error: failure }]);
});

it("the event completes even when reporting the failure throws or never settles", async () => {
  const throwing = event();
  whenReady(Promise.reject(new Error("set-up")), jest.fn(), () => { throw new Error("no taskpane"); })(throwing.event);
  const hanging = event();
  whenReady(Promise.reject(new Error("set-up")), jest.fn(), () => new Promise(() => undefined))(hanging.event);
  await settle();
  expect(throwing.completed).toHaveBeenCalledTimes(1);
  expect(hanging.completed).toHaveBeenCalledTimes(1);
});

it("a set-up that never finishes (Office.js blocked: Office.onReady never resolves) is reported after SET_UP_WAIT_MS and the press completed, so the next press runs", async () => {
  jest.useFakeTimers();
  try {
    const never = new Promise<{ session: string }>(() => undefined);
    const ran: string[] = [];
    const reports: CommandFailure[] = [];
    const handler = whenReady(never, async (app) => void ran.push(app.session), (f) => reports.push(f));
    const first = event();
    handler(first.event);
    await jest.advanceTimersByTimeAsync(SET_UP_WAIT_MS - 1);
    expect(first.completed).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(first.completed).toHaveBeenCalledTimes(1);
    expect(reports).toEqual([{ stage: "set-up", error: expect.any(SetUpTimeoutError) }]);
    // What the taskpane and the console show: its name and the whole message, with the wait in seconds.
    expect(reports[0].error).toMatchObject({
      name: "SetUpTimeoutError",
      message: "Spend Sync has not finished starting after 30 s (Office.js may be blocked by a network filter or a browser extension). " +
        "Close and reopen the add-in, then press the button again.",
    });
    expect(String((reports[0].error as Error).message)).toMatch(/has not finished starting after 30 s/);
    expect(ran).toEqual([]);
  } finally {
    jest.useRealTimers();
  }
});
