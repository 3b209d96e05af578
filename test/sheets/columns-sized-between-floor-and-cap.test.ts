/**
 * Columns are sized to their content, each kept between its floor and the width cap (src/sheets/excel/widths.ts):
 * Excel's autofit over the header and body, then a column narrower than its floor raised to it, one wider than the cap
 * lowered to it, one already right left alone; one sync. A recording stand-in for Excel's ranges: no Excel.
 */
import { WIDTH_CAP } from "../../src/sheets/port/cells";
import type { XContext, XWorksheet } from "../../src/sheets/excel/api";
import { sizeColumns } from "../../src/sheets/excel/widths";

/** Excel's ranges as far as sizing goes: each column's width after autofit, and what was asked of them. */
function excelWithWidths(autofit: number[]) {
  const log: string[] = [];
  const widths = new Map<number, number>();
  const sheet = {
    getRangeByIndexes: (top: number, left: number, rows: number, columns: number) => ({
      format: {
        autofitColumns: () => {
          log.push(`autofit ${top},${left} ${rows}x${columns}`);
          for (let c = 0; c < columns; c++) widths.set(left + c, autofit[left + c]);
        },
        load: () => {
          const column = left;
          return {
            get columnWidth() { return widths.get(column)!; },
            set columnWidth(w: number) { log.push(`width ${column} = ${w}`); widths.set(column, w); },
          };
        },
      },
    }),
  } as unknown as XWorksheet;
  const context = { sync: async () => void log.push("sync") } as unknown as XContext;
  return { log, widths, sheet, context };
}

describe("column widths", () => {
  it("autofit over the header and body, then each column raised to its floor or lowered to the cap; one sync; unchanged widths left alone", async () => {
    const excel = excelWithWidths([0, 0, 40, 120, 500, 80, WIDTH_CAP, 95]);
    await sizeColumns(excel.context, excel.sheet, 3, 2, 11, [95, undefined, 300, 60, WIDTH_CAP, 95]);
    expect(excel.log).toEqual(["autofit 3,2 11x6", "sync", "width 2 = 95", `width 4 = ${WIDTH_CAP}`]);
    expect([2, 3, 4, 5, 6, 7].map((c) => excel.widths.get(c))).toEqual([95, 120, 300, 80, 300, 95]);
    expect(WIDTH_CAP).toBe(300);
  });

  it("no columns: nothing asked of Excel", async () => {
    const excel = excelWithWidths([]);
    await sizeColumns(excel.context, excel.sheet, 0, 0, 5, []);
    expect(excel.log).toEqual([]);
  });
});
