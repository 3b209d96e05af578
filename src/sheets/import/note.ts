/**
 * Where an imported value came from, kept in its row's Sync status ("Imported from bank file line 17."), so that
 * Preview names it beside what it will send and the person can find the line. The note lasts until the row is
 * synced, discarded or refreshed (each writes its own status), or the edit is undone (Preview clears it then).
 */
export const IMPORT_NOTE_PREFIX = "Imported from ";

/** The import note at the end of a status, or "" when it has none. */
export function importNoteOf(status: string): string {
  const at = status.lastIndexOf(IMPORT_NOTE_PREFIX);
  return at < 0 ? "" : status.slice(at).trim();
}

/** The sources a note names ("bank file line 17"), in order. */
export function importSources(status: string): string[] {
  const note = importNoteOf(status);
  if (!note) return [];
  return note.slice(IMPORT_NOTE_PREFIX.length).replace(/\.$/, "").split("; ").filter(Boolean);
}

/** The note naming `sources` (each once, in order). */
export function importNote(sources: readonly string[]): string {
  return `${IMPORT_NOTE_PREFIX}${[...new Set(sources)].join("; ")}.`;
}
