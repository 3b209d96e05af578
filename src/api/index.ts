/** The add-in's only road to the service. */
export * from "./client";
export * from "./errors";
export * from "./redact";
export * from "./base-url";
export { MAX_LIST_RECORDS } from "./page-guard";
export * from "./retry";
export * from "./transport";
export * from "./pagination";
export * from "./common";
export * from "./cards";
export * from "./movements";
export * from "./allowances";
export * from "./expenses";
export * from "./state-patch";
export * from "./governor";
export * from "./session";
