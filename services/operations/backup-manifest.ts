// The manifest a backup ends with (manifest.json, written last: a directory without one is no backup): what the
// backup holds, each file's size and SHA-256, the event store's last position and when it was taken. Read back
// through zod by the restore, which checks every file against it before copying any.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

export const MANIFEST_FILE = "manifest.json";
export const BACKUP_FORMAT = "workspace-backup/1";

const relativePath = z
  .string()
  .min(1)
  .refine(
    (path) => !path.startsWith("/") && !path.split("/").includes("..") && path !== MANIFEST_FILE,
    "must be a relative path inside the backup",
  );

const backupFileSchema = z.strictObject({
  path: relativePath,
  /** database: an online copy of a SQLite file; blob: an image's or attachment's bytes; secret: DATA_DIR's session secret. */
  kind: z.enum(["database", "blob", "secret"]),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupFile = z.infer<typeof backupFileSchema>;

const manifestSchema = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.iso.datetime(),
  /** The last position of the event log the backup holds (0 for an empty log). */
  eventStorePosition: z.number().int().nonnegative(),
  /** In the order they were taken: the event store, the blobs, the key store, the rest. */
  files: z.array(backupFileSchema),
  /** What a backup never holds, for whoever reads the manifest. */
  notes: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export async function readManifest(backupDir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(backupDir, MANIFEST_FILE), "utf8");
  } catch {
    throw new Error(`${backupDir} holds no ${MANIFEST_FILE}: not a backup, or one that did not finish`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${join(backupDir, MANIFEST_FILE)} is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${join(backupDir, MANIFEST_FILE)} is not a backup manifest: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  return parsed.data;
}

/** Size and SHA-256 of a file, read as a stream. */
export async function digestFile(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    const buffer = chunk instanceof Buffer ? chunk : Buffer.from(String(chunk));
    bytes += buffer.length;
    hash.update(buffer);
  }
  return { bytes, sha256: hash.digest("hex") };
}
