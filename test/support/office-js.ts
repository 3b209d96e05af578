/**
 * jest's setup file: Microsoft's Office.js client is in this realm already (office-js-environment.js runs the
 * library as a script); this adds our one shim to it (src/workbench/office-js/values-as-json.ts) and makes the
 * Office host around it an Excel (current Microsoft 365 unless a test picks another profile). The adapter, the
 * self-test and the sync reach the in-memory Excel through that client: FakeExcel.run is Excel.run.
 */
import { officeJs } from "../../src/workbench/office-js/library";
import { useExcelProfile } from "../../src/workbench/office-js/office-host";
import { addValuesAsJson } from "../../src/workbench/office-js/values-as-json";
import { DEFAULT_PROFILE } from "../../src/workbench/fake-excel/profiles";

addValuesAsJson(officeJs());
useExcelProfile(DEFAULT_PROFILE);
