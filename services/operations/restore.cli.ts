// `npm run restore -- --from DIR [--erasures-from OLD_DATA_DIR] [--kek-from FILE]`: a backup into an empty
// DATA_DIR (services/operations/restore.ts). `npm run restore -- --erasures-from OLD_DATA_DIR` alone applies
// the old deployment's erasures to DATA_DIR as it is (a directory restored without them).
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { applyErasures, tombstonesOf } from "./apply-erasures.ts";
import { parseRestoreArgs, type RestoreArgs } from "./operations-args.ts";
import { restoreBackup, type RestoreProgress } from "./restore.ts";

const USAGE = `usage: npm run restore -- --from BACKUP_DIR [--erasures-from OLD_DATA_DIR] [--kek-from FILE]
       npm run restore -- --erasures-from OLD_DATA_DIR      (on a DATA_DIR restored before)
  DATA_DIR must be empty for --from. The key-encryption key comes from ERASURE_KEK or --kek-from.`;

let args: RestoreArgs;
try {
  args = parseRestoreArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`restore: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, "restore");
const say = (line: string) => process.stdout.write(`${line}\n`);
const progress = (step: RestoreProgress): void => {
  if (step.step === "replay") process.stderr.write(`\rreplaying the log: ${step.applied} / ${step.head} events`);
  else
    process.stderr.write(
      `\r${step.step === "verify" ? "checking" : "copying"} files: ${step.done} / ${step.total}${step.done === step.total ? "\n" : ""}`,
    );
};
try {
  if (args.from === null) {
    const old = args.erasuresFrom ?? "";
    const outcomes = await applyErasures(config, tombstonesOf(old), say);
    say(
      `applied ${outcomes.length} erasure${outcomes.length === 1 ? "" : "s"} recorded in ${old} to ${config.DATA_DIR}; the running projector (or the next start) projects them`,
    );
  } else {
    const { manifest, erasures } = await restoreBackup({
      from: args.from,
      config,
      kekFrom: args.kekFrom,
      erasuresFrom: args.erasuresFrom,
      logger,
      onProgress: progress,
      log: say,
    });
    process.stderr.write("\n");
    say(
      `restored ${args.from} (taken ${manifest.createdAt}, event log up to position ${manifest.eventStorePosition}) into ${config.DATA_DIR}`,
    );
    if (erasures === null) {
      say(
        `NOT APPLIED: the erasures made after ${manifest.createdAt} in the deployment this replaces. Their record is that deployment's key store ` +
          `(its DATA_DIR/keys.sqlite, tombstones of destroyed keys), which this restore was not given. Before serving, apply them with ` +
          `\`npm run restore -- --erasures-from OLD_DATA_DIR\` on this DATA_DIR, or run \`npm run erase\` again for each erasure made since.`,
      );
    } else {
      say(
        `applied ${erasures.length} erasure${erasures.length === 1 ? "" : "s"} recorded in ${args.erasuresFrom ?? ""}`,
      );
    }
  }
} catch (error) {
  process.stderr.write(`\nrestore: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
