/** Sync states: edited rows -> plan -> PATCH -> results. The taskpane and the ribbon call these. */
export * from "./outcome";
export * from "./plan";
export * from "./server-check";
export * from "./sync-table";
export * from "./preview";
export * from "./preview-marks";
export * from "./typed-values";
export * from "./execute";
export * from "./journal";
export { OUTCOME_LABELS } from "./write-outcomes";
export * from "./team-batch";
