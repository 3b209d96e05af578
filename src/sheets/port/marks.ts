/** The fills Spend Sync puts on its tables' cells, so that a user sees what is theirs to edit and what they edited. */

/** Fill of the columns the user edits, and of their headers. */
export const EDITABLE_FILL = "#FFF4CE";
export const EDITABLE_HEADER_FILL = "#FFE699";
/** Fill of a cell edited and not yet synced (Excel's "Orange, Accent 2, Lighter 60%"). */
export const EDITED_FILL = "#F8CBAD";
