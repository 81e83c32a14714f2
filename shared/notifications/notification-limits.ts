// The bounds that keep notifications' cost independent of how many people an event reaches.

/** The most notifications one user keeps; the oldest are dropped past it. */
export const MAX_NOTIFICATIONS_PER_USER = 500;
/** The most recipients one event notifies (a thread's participants, a comment's mentions, a group's members). */
export const MAX_RECIPIENTS_PER_EVENT = 1000;
/** A later notification of the same subject within this window updates the first instead of adding one. */
export const COALESCE_WINDOW_MS = 60 * 60 * 1000;
/** The most actors a coalesced notification names. */
export const MAX_ACTORS_NAMED = 10;
/** The most rows one list request reads to fill its page once invisible ones are left out. */
export const MAX_ROWS_SCANNED_PER_PAGE = 400;
