/** Importing an ERP's or a bank's file into the tracked columns: reading it, and matching its lines to records. Pure. */
export * from "./amounts";
export * from "./csv";
export * from "./dates";
export * from "./decode";
export * from "./errors";
export * from "./judge";
export * from "./lines";
export * from "./mapping";
export * from "./match";
export * from "./records";
export * from "./sniff";
export type { MatchWindow } from "./candidates";
