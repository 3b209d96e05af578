/** Resources <-> Excel tables, through the Workbook port. */
export * from "./port/workbook";
export type * from "./port/edit-marks";
export * from "./port/values";
export * from "./columns";
export * from "./load/params";
export {
  RESOURCE_KINDS, formOf, trackedSpecOf,
  type ParamDecl, type PickerKey, type TrackedRecord,
} from "./resources";
export * from "./load/load";
export * from "./load/context";
export * from "./stored-tables";
export * from "./refresh/all";
export * from "./port/marks";
export * from "./edits/row-hashes";
export * from "./render";
export * from "./refresh/merge";
export * from "./edits/edits";
export * from "./edits/discard";
export * from "./edits/snapshot";
export * from "./edits/tracked-values";
export { TRACKED_KEYS, STATUS_KEY, type TrackedKey } from "./resources/tracking";
export * from "./spill/spill";
export * from "./spill/types";
export * from "./reconciliation/reconciliation";
export * from "./reconciliation/sheet";
export { writeCardClose, type CardCloseReport } from "./card-close/sheet";
export * from "./money-formats";
export * from "./port/workbook-errors";
export * from "./import/note";
export * from "./import/table";
export * from "./import/fill";
export * from "./import/run";
