/**
 * What the workbook keeps about the tables Spend Sync loaded, in its settings (never the key): each table's load
 * parameters and columns, so that Refresh reloads the same query and a colleague can refresh with their own key,
 * and the list of loaded tables.
 */
import { z } from "zod";
import type { Load } from "./load/context";
import { LoadParams } from "./load/params";
import type { Workbook } from "./port/workbook";

/** The setting of a loaded table is this prefix and the table's name. */
export const SETTING_PREFIX = "spendsync.table.";

/** What the workbook keeps about a loaded table (never the key). */
const StoredTable = z.object({ params: LoadParams, columns: z.array(z.string()), loadedAt: z.string() });
export type StoredTable = z.infer<typeof StoredTable>;

export async function readStoredTable(workbook: Workbook, tableName: string): Promise<StoredTable | null> {
  const raw = await workbook.readSetting(SETTING_PREFIX + tableName);
  if (raw === null) return null;
  const parsed = StoredTable.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : null;
}

/** @internal first-load and refresh tests read or break the list of tables by it. */
export const TABLES_SETTING = "spendsync.tables";

/** Names of the tables Spend Sync loaded into this workbook, oldest first. */
export async function listLoadedTables(workbook: Workbook): Promise<string[]> {
  const raw = await workbook.readSetting(TABLES_SETTING);
  try {
    const names = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
  } catch {
    return [];
  }
}

/** The load parameters, kept for Refresh, and the table in the list of loaded tables. */
export async function keepParams(load: Load): Promise<void> {
  const storedNow: StoredTable = { params: load.params, columns: load.layout, loadedAt: load.now.toISOString() };
  await load.workbook.writeSetting(SETTING_PREFIX + load.tableName, JSON.stringify(storedNow));
  if (!load.loadedTables.includes(load.tableName)) await load.workbook.writeSetting(TABLES_SETTING, JSON.stringify([...load.loadedTables, load.tableName]));
}
