/** The service's rules, shared by the sandbox and the add-in. No I/O here. */
export * from "./states";
export * from "./messages";
export * from "./transitions";
export * from "./patch-body";
export * from "./timestamps";
export * from "./ids";
export * from "./message-of";
