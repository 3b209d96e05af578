/** What the taskpane says when something goes wrong: the sentence of the error's kind (api/error-table.ts). */
import { shown } from "../api";

export function explain(error: unknown): string {
  return shown(error).taskpane;
}
