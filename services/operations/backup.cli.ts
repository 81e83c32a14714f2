// `npm run backup -- --to DIR`: an online, consistent copy of the embedded deployment's DATA_DIR, taken while
// the server runs (services/operations/backup.ts), with a manifest and progress.
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { takeBackup, type BackupProgress } from "./backup.ts";
import { parseBackupArgs } from "./operations-args.ts";

const USAGE = "usage: npm run backup -- --to DIR   (DIR new or empty; DATA_DIR is the deployment backed up)";

let args: { readonly to: string };
try {
  args = parseBackupArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`backup: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, "backup");
if (config.EVENTSTORE_URL || config.MONGODB_URL) {
  process.stderr.write(
    "backup: EVENTSTORE_URL or MONGODB_URL is set: back the split deployment up with its stores' own tools (docs/operations/keys-and-backups.md)\n",
  );
  process.exit(2);
}
const progress = (step: BackupProgress): void => {
  if (step.step === "database")
    process.stderr.write(
      `\r${step.file}: ${step.copiedPages} / ${step.totalPages} pages${step.copiedPages === step.totalPages ? "\n" : ""}`,
    );
  else if (step.step === "blobs")
    process.stderr.write(`\rblobs: ${step.copied} / ${step.total}${step.copied === step.total ? "\n" : ""}`);
  else process.stderr.write(`${step.file}\n`);
};
try {
  const manifest = await takeBackup({ dataDir: config.DATA_DIR, to: args.to, onProgress: progress });
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  logger.info(
    { event: "backup.taken", to: args.to, position: manifest.eventStorePosition, files: manifest.files.length, bytes },
    "backup taken",
  );
  process.stdout.write(
    `backup of ${config.DATA_DIR} in ${args.to}: event log up to position ${manifest.eventStorePosition}, ${manifest.files.length} files, ${bytes.toLocaleString()} bytes, taken ${manifest.createdAt}\n` +
      "it holds no key-encryption key: keep ERASURE_KEK (or DATA_DIR/erasure-kek) apart from it\n",
  );
} catch (error) {
  process.stderr.write(`\nbackup: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
