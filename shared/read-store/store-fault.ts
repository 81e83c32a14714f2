// Whether an error came from a read store itself (SQLite's or MongoDB's driver: a full disk, a lost connection,
// a unique index violated by data written by hand) rather than from a projection's own logic. A store fault is
// retried (and stalls the projector when it lasts); only a projection's own failure parks an event.
export function isStoreFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === "SqliteError" || error.name.startsWith("Mongo");
}
