// `npm run restore -- --from DIR`: a backup (backup.ts) into an empty DATA_DIR. Every file is checked against
// the manifest before any is copied; the read models are then rebuilt from the restored log, the erasures of
// the deployment being replaced are applied (`--erasures-from OLD_DATA_DIR`, apply-erasures.ts), and what they
// appended is projected, so the directory is ready to serve and holds nothing an erasure took.
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../../shared/config/config.ts";
import { readAllBounded } from "../../shared/event-store/bounded-read.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import type { ProjectionStore } from "../../shared/read-store/read-store.port.ts";
import { KEK_FILE } from "../../shared/erasure/key-encryption-key.ts";
import { onProjectionStore, openProjectionStore } from "../wiring/projector.ts";
import { openEventStore } from "../wiring/write-stores.ts";
import { storeJournalsFor } from "../wiring/erasure.ts";
import { Projector } from "../projector/projector.ts";
import { rebuildReadModels, type RebuildProgress } from "../projector/rebuild.ts";
import { applyErasures, tombstonesOf, type ErasureOutcome } from "./apply-erasures.ts";
import { BLOBS_DIRECTORY, isEmptyOrAbsent } from "./backup.ts";
import { digestFile, readManifest, type BackupManifest } from "./backup-manifest.ts";

export type RestoreProgress =
  | { readonly step: "verify" | "copy"; readonly done: number; readonly total: number }
  | ({ readonly step: "replay" } & RebuildProgress);

/** Checks every file the manifest names against its size and SHA-256; throws naming the first that differs. */
async function verifyBackup(
  from: string,
  manifest: BackupManifest,
  onProgress: (progress: RestoreProgress) => void = () => undefined,
): Promise<void> {
  let done = 0;
  for (const file of manifest.files) {
    let actual: { bytes: number; sha256: string };
    try {
      actual = await digestFile(join(from, file.path));
    } catch {
      throw new Error(`the backup is damaged: ${file.path} is missing`);
    }
    if (actual.bytes !== file.bytes || actual.sha256 !== file.sha256)
      throw new Error(`the backup is damaged: ${file.path} does not match its checksum in the manifest`);
    done += 1;
    onProgress({ step: "verify", done, total: manifest.files.length });
  }
}

/** Applies every batch the log holds past the store's checkpoint. */
async function catchUp<Tx>(eventStore: EventStore, store: ProjectionStore<Tx>, logger: Logger): Promise<void> {
  const projector = new Projector({ eventStore, store, logger });
  let position = await store.checkpoint();
  for (;;) {
    const batch = await readAllBounded(eventStore, position, { maxEvents: 1_000, maxBytes: 32 * 1024 * 1024 });
    const last = batch.at(-1);
    if (!last) return;
    await projector.applyBatch(batch);
    position = last.position;
  }
}

export interface RestoreOutcome {
  readonly manifest: BackupManifest;
  readonly erasures: readonly ErasureOutcome[] | null;
}

export async function restoreBackup(options: {
  from: string;
  config: Config;
  /** The key-encryption key's file to place in DATA_DIR (else ERASURE_KEK must be set). */
  kekFrom: string | null;
  /** The DATA_DIR being replaced, whose key store's tombstones are the erasures to apply. */
  erasuresFrom: string | null;
  logger: Logger;
  onProgress?: (progress: RestoreProgress) => void;
  log?: (line: string) => void;
}): Promise<RestoreOutcome> {
  const { from, config } = options;
  const report = options.onProgress ?? (() => undefined);
  const dataDir = config.DATA_DIR;
  if (!(await isEmptyOrAbsent(dataDir)))
    throw new Error(
      `DATA_DIR ${dataDir} is not empty: a restore goes into an empty directory only (move the old one aside, and give it as --erasures-from)`,
    );
  if (!config.ERASURE_KEK && options.kekFrom === null) {
    throw new Error(
      `the backup holds no key-encryption key: set ERASURE_KEK, or give --kek-from FILE (the ${KEK_FILE} of the deployment backed up)`,
    );
  }
  if (config.EVENTSTORE_URL || config.MONGODB_URL)
    throw new Error(
      "EVENTSTORE_URL or MONGODB_URL is set: this restores the embedded deployment only (docs/operations/keys-and-backups.md for the split one)",
    );
  const manifest = await readManifest(from);
  await verifyBackup(from, manifest, report);
  // Read now: a tombstone file that cannot be read stops the restore before it writes anything.
  const tombstones = options.erasuresFrom === null ? [] : tombstonesOf(options.erasuresFrom);

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (manifest.files.some((file) => file.kind === "blob")) await mkdir(join(dataDir, BLOBS_DIRECTORY), { mode: 0o700 });
  let done = 0;
  for (const file of manifest.files) {
    const target = join(dataDir, file.path);
    await copyFile(join(from, file.path), target);
    await chmod(target, 0o600);
    done += 1;
    report({ step: "copy", done, total: manifest.files.length });
  }
  if (options.kekFrom !== null)
    await writeFile(join(dataDir, KEK_FILE), await readFile(options.kekFrom), { mode: 0o600, flag: "wx" });

  const eventStore = await openEventStore(config);
  const store = await openProjectionStore(config);
  try {
    await onProjectionStore(store, (typed) =>
      rebuildReadModels({
        eventStore,
        store: typed,
        logger: options.logger,
        onProgress: (progress) => report({ step: "replay", ...progress }),
      }),
    );
  } finally {
    await store.close();
    await eventStore.close();
  }
  const erasures = await applyErasures(config, tombstones, options.log);
  const after = await openEventStore(config);
  const caughtUp = await openProjectionStore(config);
  try {
    await onProjectionStore(caughtUp, (typed) => catchUp(after, typed, options.logger));
  } finally {
    await caughtUp.close();
    await after.close();
  }
  await storeJournalsFor(config).empty();
  return { manifest, erasures: options.erasuresFrom === null ? null : erasures };
}
