// Applies to a restored DATA_DIR the erasures recorded in the deployment it replaces: the tombstones of that
// deployment's key store (subject and key id of every key it destroyed) are its erasure record. A tombstone
// applies where the restored key store still holds that very key (same subject, same key id): an erasure made
// after the backup was taken. Each is completed as `npm run erase` would do it (an account erased, a page or
// folder deleted and purged), then its key destroyed; an address's key is destroyed (its invitations read as
// erased). Keys made after the backup are not in the restored store, and keys a subject got afresh after an
// erasure (another key id) are left alone.
//
// The restored store's own tombstones are also completed for pages and folders: a purge destroys the item's key
// before it records the purge, so a backup can hold the destroyed key without the purge; purging it again
// makes the item answer 404 as it did (and makes a blob the backup missed irrelevant).
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { z } from "zod";
import type { Config } from "../../shared/config/config.ts";
import { folderIdSchema, pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { eraseItem } from "../../shared/trash/erase-item.ts";
import { eraseUser } from "../../shared/users/erase-user.ts";
import { userCommands } from "../../shared/users/user.commands.ts";
import { pageCommands } from "../../shared/pages/page.commands.ts";
import { folderCommands } from "../../shared/folders/folder.commands.ts";
import { openBlobStore, openSealedEventStore } from "../wiring/write-stores.ts";
import { openReadStore } from "../wiring/read-stores.ts";
import { readModelCopiesFor, sentMailFor, KEY_STORE_FILE } from "../wiring/erasure.ts";

const keyRow = z.object({ subject: z.string(), key_id: z.string() });

export interface KeyRecord {
  readonly subject: string;
  readonly keyId: string;
}

function rows(file: string, sql: string): KeyRecord[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return db
      .prepare(sql)
      .all()
      .map((row) => keyRow.parse(row))
      .map((row) => ({ subject: row.subject, keyId: row.key_id }));
  } finally {
    db.close();
  }
}

/** The erasure record of a DATA_DIR: its key store's tombstones. */
export function tombstonesOf(dataDir: string): KeyRecord[] {
  const file = join(dataDir, KEY_STORE_FILE);
  if (!existsSync(file)) throw new Error(`${dataDir} holds no ${KEY_STORE_FILE}: no erasure record to apply`);
  return rows(file, "SELECT subject, key_id FROM destroyed_keys");
}

function liveKeysOf(dataDir: string): Map<string, string> {
  return new Map(
    rows(join(dataDir, KEY_STORE_FILE), "SELECT subject, key_id FROM data_keys").map((key) => [key.subject, key.keyId]),
  );
}

export interface ErasureOutcome {
  readonly subject: string;
  readonly outcome: "account erased" | "purged" | "key destroyed" | "not in the log";
}

/**
 * Applies `tombstones` (another deployment's erasure record; empty for none) to `config.DATA_DIR`, and completes
 * the purges its own key store records. The read models should show the whole log (a restore rebuilds them
 * first); the running projector, or the next start, projects what this appends.
 */
export async function applyErasures(
  config: Config,
  tombstones: readonly KeyRecord[],
  log: (line: string) => void = () => undefined,
): Promise<ErasureOutcome[]> {
  const live = liveKeysOf(config.DATA_DIR);
  const pending = tombstones
    .filter((tombstone) => live.get(tombstone.subject) === tombstone.keyId)
    .map((tombstone) => tombstone.subject);
  const own = tombstonesOf(config.DATA_DIR)
    .map((tombstone) => tombstone.subject)
    .filter((subject) => subject.startsWith("page:") || subject.startsWith("folder:"));
  const { eventStore, erasure } = await openSealedEventStore(config);
  const readStore = await openReadStore(config);
  const blobs = await openBlobStore(config);
  const correlationId = `restore-erasures-${randomUUID()}`;
  const ports = {
    eventStore,
    views: readStore,
    keys: erasure.keys,
    blobs,
    addressHash: (address: string) => erasure.kek.addressHash(address),
    sentMail: sentMailFor(config),
    readModelCopies: readModelCopiesFor(config),
  };
  const context = (actorId: string) => ({ actorId: userIdSchema.parse(actorId), correlationId, now: new Date() });
  const outcomes: ErasureOutcome[] = [];
  const purge = async (subject: string, type: "page" | "folder", id: string): Promise<ErasureOutcome> => {
    const outcome = await eraseItem(ports, type, id, context);
    return { subject, outcome: outcome.found ? "purged" : "not in the log" };
  };
  try {
    for (const subject of new Set(pending)) {
      const [kind = "", id = ""] = subject.split(":");
      let outcome: ErasureOutcome = { subject, outcome: "key destroyed" };
      if (kind === "user") {
        const userId = userIdSchema.parse(id);
        if ((await userCommands.load(eventStore, userId)).registered) {
          await eraseUser(ports, userId, context(userId));
          outcome = { subject, outcome: "account erased" };
        }
      } else if (kind === "page") {
        outcome = await purge(subject, "page", pageIdSchema.parse(id));
      } else if (kind === "folder") {
        outcome = await purge(subject, "folder", folderIdSchema.parse(id));
      }
      // Whatever the flow did, the key of the erasure record goes (an address's has no flow: its events read as erased).
      await erasure.keys.destroy(subject);
      outcomes.push(outcome);
      log(`applied the erasure of ${subject}: ${outcome.outcome}`);
    }
    for (const subject of new Set(own)) {
      if (pending.includes(subject)) continue;
      const [kind, id = ""] = subject.split(":");
      const status =
        kind === "page"
          ? (await pageCommands.load(eventStore, pageIdSchema.parse(id))).status
          : (await folderCommands.load(eventStore, folderIdSchema.parse(id))).status;
      if (status !== "live" && status !== "deleted") continue;
      const outcome = await purge(subject, kind === "page" ? "page" : "folder", id);
      outcomes.push(outcome);
      log(`completed the purge of ${subject}, whose key the backup holds destroyed`);
    }
  } finally {
    await blobs.close();
    await readStore.close();
    await eventStore.close();
  }
  return outcomes;
}
