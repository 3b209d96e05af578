/** Resources <-> Excel tables, through the Workbook port. */
export * from "./workbook";
export * from "./excel/api";
export * from "./excel/adapter";
export * from "./excel/values";
export * from "./columns";
export * from "./load-params";
export {
  RESOURCE_KINDS, formOf, listFunctionOf, trackedSpecOf,
  type ArgSpec, type ParamDecl, type PickerKey, type TrackedRecord,
} from "./resources";
export * from "./load";
export * from "./load-context";
export * from "./stored-tables";
export * from "./refresh-all";
export * from "./marks";
export { DUPLICATE_NOTE } from "./refresh-plan";
export * from "./row-hashes";
export * from "./render";
export * from "./merge";
export * from "./edits";
export * from "./discard";
export * from "./snapshot";
export * from "./tracked-values";
export { TRACKED_KEYS, STATUS_KEY, type TrackedKey } from "./resources/tracking";
export * from "./spill";
export * from "./self-test";
export * from "./spill-types";
export * from "./reconciliation";
export * from "./reconciliation-sheet";
export { closePlace, writeCardClose, type CardCloseReport, type CardCloseRequest } from "./card-close-sheet";
export * from "./money-formats";
export * from "./workbook-errors";
export * from "./import-note";
export * from "./import-table";
export * from "./import-fill";
export * from "./import-run";
