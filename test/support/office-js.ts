/**
 * jest's setup file: Microsoft's Office.js client is in this realm already (office-js-environment.js runs the
 * library as a script); this adds our one shim to it (src/workbench/office-js/values-as-json.ts). The adapter,
 * the self-test and the sync reach the in-memory Excel through that client: FakeExcel.run is Excel.run.
 */
import { officeJs } from "../../src/workbench/office-js/library";
import { addValuesAsJson } from "../../src/workbench/office-js/values-as-json";

addValuesAsJson(officeJs());
