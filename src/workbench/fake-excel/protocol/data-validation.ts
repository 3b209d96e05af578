/**
 * A range's data validation on the in-memory Excel: list rules only (the add-in's dropdowns), set over cells
 * without another rule, cleared cell by cell. https://learn.microsoft.com/javascript/api/excel/excel.datavalidation
 */
import { FakeExcelError } from "../errors";
import { overlaps, subtractArea } from "./areas";
import { HostObject, type Members } from "./host-object";
import type { RangeCells } from "./range-cells";

/** The longest a list validation's source may be: "a list source string is limited to 255 characters" (EXCEL-FACTS). */
const LIST_SOURCE_LIMIT = 255;

export class DataValidationObject extends HostObject {
  readonly className = "DataValidation";
  constructor(private readonly range: RangeCells) {
    super();
  }

  protected members(): Members {
    const { sheet, area } = this.range;
    return {
      scalars: {
        Rule: {
          get: () => {
            const rule = sheet.validationAt(area.row, area.column);
            return rule ? { list: { ...rule.list } } : {};
          },
          set: (input) => {
            const list = (input as { list?: { inCellDropDown?: unknown; source?: unknown } } | null)?.list;
            if (!list || typeof list.source !== "string" || typeof list.inCellDropDown !== "boolean") {
              throw new FakeExcelError("InvalidArgument", "The in-memory Excel takes list validation rules only: { list: { inCellDropDown, source } }.");
            }
            if (list.source.length > LIST_SOURCE_LIMIT) throw new FakeExcelError("InvalidArgument", `A list source has at most ${LIST_SOURCE_LIMIT} characters; this one has ${list.source.length}.`);
            // Whether a rule may be set over cells that have another one is not documented: refused (strict), so
            // the add-in clears the old rule first (Microsoft's samples advise clearing with each run).
            const other = sheet.validations.find((v) => overlaps(v.area, area) && v.list.source !== list.source);
            if (other) throw new FakeExcelError("InvalidOperation", "Some of these cells already have another data validation rule: clear it first.");
            sheet.validations.push({ area, list: { inCellDropDown: list.inCellDropDown, source: list.source } });
          },
        },
      },
      methods: {
        /** Only this range's cells lose their rule: a rule over a larger area keeps the rest of it. */
        Clear: () => {
          const kept = sheet.validations.flatMap((v) => subtractArea(v.area, area).map((rest) => ({ area: rest, list: v.list })));
          sheet.validations.splice(0, sheet.validations.length, ...kept);
          return null;
        },
      },
    };
  }
}
