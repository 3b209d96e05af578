/** The Workbook port's Excel adapter, for the hosts that wire it to Office (the taskpane, functions, commands, workbench). */
export * from "./api";
export * from "./adapter";
export * from "./self-test/self-test";
