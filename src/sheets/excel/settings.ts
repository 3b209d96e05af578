/** The workbook's own settings (Excel.SettingCollection): where the add-in keeps what belongs to one workbook. */
import type { XContext } from "./api";

/** A setting's value as text, or null when the workbook has none of that key. */
export async function readSetting(context: XContext, key: string): Promise<string | null> {
  const setting = context.workbook.settings.getItemOrNullObject(key);
  setting.load("value");
  await context.sync();
  return setting.isNullObject || setting.value === null || setting.value === undefined ? null : String(setting.value);
}

/** Sets a setting (added, or replaced when the key exists). */
export async function writeSetting(context: XContext, key: string, value: string): Promise<void> {
  context.workbook.settings.add(key, value);
  await context.sync();
}
