/**
 * The wait notice ("Excel is waiting: perhaps a cell is being edited") goes up when a request has been left
 * unanswered for WAIT_NOTICE_MS, from the add-in's very first request on, and down only once no request is
 * waiting any more; a listener that stopped listening hears nothing more. Requests are held here by the
 * Excel host itself (as Excel holds them while a person types in a cell), one by one.
 */
import { ExcelWorkbook } from "../../src/sheets/excel";
import { WAIT_NOTICE_MS } from "../../src/sheets/excel/runs";
import type { ExcelHost } from "../../src/sheets/excel/api";
import { FakeExcel } from "../../src/workbench/fake-excel";

/** The in-memory Excel, each run's requests held until the test lets that run go. */
function heldHost() {
  const excel = new FakeExcel();
  const gates: (() => void)[] = [];
  const host: ExcelHost = {
    run: (options, batch) => excel.run(options, (context) => {
      const sync = context.sync.bind(context);
      const held = new Promise<void>((resolve) => gates.push(resolve));
      context.sync = (async (passThrough?: unknown) => {
        await held;
        return sync(passThrough);
      }) as typeof context.sync;
      return batch(context);
    }),
  };
  return { host, release: (run: number) => gates[run]() };
}

const turns = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it("goes up for the add-in's first request, and down only once the last of two waiting requests is answered", async () => {
  const { host, release } = heldHost();
  const workbook = new ExcelWorkbook(host);
  const heard: boolean[] = [];
  workbook.onExcelWait((waiting) => heard.push(waiting));
  const first = workbook.readSetting("a");
  const second = workbook.readSetting("b");
  await turns();
  jest.advanceTimersByTime(WAIT_NOTICE_MS - 1);
  expect(heard).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(heard).toEqual([true]);
  release(1);
  await second;
  expect(heard).toEqual([true]); // the first request still waits
  release(0);
  await first;
  expect(heard).toEqual([true, false]);
});

it("a listener that stopped listening hears nothing more; the others still do", async () => {
  const { host, release } = heldHost();
  const workbook = new ExcelWorkbook(host);
  const stopped: boolean[] = [];
  const still: boolean[] = [];
  const stop = workbook.onExcelWait((waiting) => stopped.push(waiting));
  workbook.onExcelWait((waiting) => still.push(waiting));
  stop();
  const read = workbook.readSetting("a");
  await turns();
  jest.advanceTimersByTime(WAIT_NOTICE_MS);
  release(0);
  await read;
  expect([stopped, still]).toEqual([[], [true, false]]);
});
