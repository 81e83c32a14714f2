// Opens a SQLite file the way every embedded store uses it: WAL (readers never block the writer), NORMAL
// sync (durable at checkpoints; a crash loses no committed transaction in WAL mode, only a power cut may),
// a busy timeout for other processes, a bounded page cache, and deleted content overwritten (secure_delete).
import { closeSync, openSync } from "node:fs";
import Database from "better-sqlite3";

// Note for every query here: a bound LIMIT is written `LIMIT CAST(? AS INTEGER)`. A plain `LIMIT ?` makes
// SQLite re-plan the statement for each new value bound (about 15 µs a call on this machine, measured).

/**
 * SQLite's own page cache per connection, in MB. The read models' connections keep 16 (their reads and the
 * projector's writes jump around the file); a connection that only appends to the end of its file and reads
 * back recent or indexed rows (the event log, the webhook delivery log) gains nothing from more than SQLite's
 * default of 2, and a catch-up that reads the whole log once would otherwise leave 16 MB of it resident
 * (docs/operations/embedded.md, "Memory").
 */
export const PAGE_CACHE_MB = { readModels: 16, log: 2 } as const;

export function openDatabase(filename: string, options: { cacheMb?: number } = {}): Database.Database {
  // The file holds every page's content: readable by the service's user only, whatever the umask. SQLite
  // gives its -wal and -shm companions the database file's own mode, so creating it 0600 covers them too.
  if (filename !== ":memory:") closeSync(openSync(filename, "a", 0o600));
  const db = new Database(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  // A negative cache_size is a budget in KiB, whatever the page size.
  db.pragma(`cache_size = ${-Math.round((options.cacheMb ?? PAGE_CACHE_MB.readModels) * 1024)}`);
  db.pragma("temp_store = memory");
  // What a row held is overwritten when the row goes (an erased user's record, a purged page's content), rather
  // than left in free space where a copy of the file would keep it.
  db.pragma("secure_delete = ON");
  return db;
}
