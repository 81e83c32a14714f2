// `npm run backup -- --to DIR`: an online copy of the embedded deployment's DATA_DIR while it serves. Each SQLite
// file is copied with SQLite's online backup API (better-sqlite3's `db.backup()`), which reads one consistent
// snapshot of it (WAL lets the server go on writing meanwhile); after the first step the rest of the file is
// copied in one step, so a busy writer cannot make the copy restart forever.
//
// The order makes the three stores agree:
// 1. the event store first: the backup holds the log up to one position;
// 2. then the blobs: an event names a blob only once its bytes were written, so every blob the copied log
//    names is there (a blob written later is a harmless extra). A blob purged between 1 and 2 is missing,
//    but a purge destroys the item's key before it records the purge and removes the bytes, so its key is
//    destroyed in the key store copied in 3: the restore completes that purge (restore.ts), and the item
//    answers 404 as it did;
// 3. then the key store: it holds every key the copied log names (a key is made before the event sealed
//    under it), and the tombstone of every key destroyed up to then;
// 4. the webhook delivery log and the session secret (either may be lost at the cost of the last deliveries'
//    log and everyone's sessions).
// Never copied: the read models (the restore rebuilds them from the log, so no plaintext of an item erased
// since is restored with them), the audit copies and the mail outbox (plaintext the log can make again), and
// the key-encryption key, kept apart from the data backups (docs/operations/keys-and-backups.md).
import { chmod, copyFile, mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SESSION_SECRET_FILE } from "../../shared/auth/session-key.ts";
import { KEY_STORE_FILE } from "../wiring/erasure.ts";
import { BACKUP_FORMAT, digestFile, MANIFEST_FILE, type BackupFile, type BackupManifest } from "./backup-manifest.ts";

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

const EVENTS_FILE = "events.sqlite";
const WEBHOOKS_FILE = "webhooks.sqlite";
export const BLOBS_DIRECTORY = "blobs";

export type BackupProgress =
  | { readonly step: "database"; readonly file: string; readonly copiedPages: number; readonly totalPages: number }
  | { readonly step: "blobs"; readonly copied: number; readonly total: number }
  | { readonly step: "file"; readonly file: string };

/** A directory to write a backup or restore into: absent, or empty. */
export async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/** An online, consistent copy of one SQLite file, made by SQLite's backup API through a read-only connection. */
async function copyDatabase(
  source: string,
  target: string,
  onProgress: (copied: number, total: number) => void,
): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    await db.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress(totalPages - remainingPages, totalPages);
        // The rest in one step, under one read transaction: a write in between cannot restart it again.
        return Math.max(remainingPages, 1);
      },
    });
  } finally {
    db.close();
  }
  // The copy is a database of its own: fold its WAL into it, so the file alone is the backup.
  const copy = new Database(target);
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  await chmod(target, PRIVATE_FILE);
}

function lastPosition(eventsCopy: string): number {
  const db = new Database(eventsCopy, { readonly: true, fileMustExist: true });
  try {
    const row: unknown = db.prepare("SELECT COALESCE(MAX(position), 0) AS position FROM events").get();
    const position = typeof row === "object" && row !== null && "position" in row ? row.position : 0;
    return typeof position === "number" ? position : 0;
  } finally {
    db.close();
  }
}

/** Takes a backup of `dataDir` into `to` (absent or empty), manifest last. */
export async function takeBackup(options: {
  dataDir: string;
  to: string;
  onProgress?: (progress: BackupProgress) => void;
  now?: () => Date;
}): Promise<BackupManifest> {
  const { dataDir, to } = options;
  const report = options.onProgress ?? (() => undefined);
  if (!existsSync(join(dataDir, EVENTS_FILE)))
    throw new Error(`${dataDir} holds no ${EVENTS_FILE}: not the DATA_DIR of an embedded deployment`);
  if (!(await isEmptyOrAbsent(to)))
    throw new Error(`${to} is not empty: a backup is written into a new or empty directory`);
  await mkdir(to, { recursive: true, mode: PRIVATE_DIRECTORY });
  const createdAt = (options.now ?? (() => new Date()))().toISOString();
  const files: BackupFile[] = [];
  const record = async (path: string, kind: BackupFile["kind"]) => {
    files.push({ path, kind, ...(await digestFile(join(to, path))) });
  };
  const database = async (file: string) => {
    await copyDatabase(join(dataDir, file), join(to, file), (copiedPages, totalPages) =>
      report({ step: "database", file, copiedPages, totalPages }),
    );
    await record(file, "database");
  };

  await database(EVENTS_FILE);
  const eventStorePosition = lastPosition(join(to, EVENTS_FILE));

  const blobsDir = join(dataDir, BLOBS_DIRECTORY);
  if (existsSync(blobsDir)) {
    await mkdir(join(to, BLOBS_DIRECTORY), { mode: PRIVATE_DIRECTORY });
    // Written blobs only: `.partial` holds uploads under way, which no event names yet.
    const names = (await readdir(blobsDir, { withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    let copied = 0;
    for (const name of names) {
      const path = `${BLOBS_DIRECTORY}/${name}`;
      try {
        await copyFile(join(blobsDir, name), join(to, path));
      } catch (error) {
        // Purged since it was listed: its item's key is destroyed in the key store copied next.
        if (error instanceof Error && "code" in error && error.code === "ENOENT") continue;
        throw error;
      }
      await record(path, "blob");
      copied += 1;
      if (copied % 100 === 0 || copied === names.length) report({ step: "blobs", copied, total: names.length });
    }
  }

  if (!existsSync(join(dataDir, KEY_STORE_FILE)))
    throw new Error(`${dataDir} holds no ${KEY_STORE_FILE}: the key store must be backed up with the log`);
  await database(KEY_STORE_FILE);
  if (existsSync(join(dataDir, WEBHOOKS_FILE))) await database(WEBHOOKS_FILE);
  if (existsSync(join(dataDir, SESSION_SECRET_FILE)) && (await stat(join(dataDir, SESSION_SECRET_FILE))).isFile()) {
    await copyFile(join(dataDir, SESSION_SECRET_FILE), join(to, SESSION_SECRET_FILE));
    report({ step: "file", file: SESSION_SECRET_FILE });
    await record(SESSION_SECRET_FILE, "secret");
  }

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    createdAt,
    eventStorePosition,
    files,
    notes: [
      "not held: the key-encryption key (ERASURE_KEK, or DATA_DIR/erasure-kek): keep it apart from the backups",
      "not held: the read models (rebuilt from the log at restore), DATA_DIR/audit and DATA_DIR/outbox",
    ],
  };
  await writeFile(join(to, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE });
  return manifest;
}
