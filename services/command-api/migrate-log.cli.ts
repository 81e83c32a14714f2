// `npm run migrate-log -- --to FILE | --to-namespace NS [--to-url URL] [--from FILE | --from-url URL
// --from-namespace NS] [--stop-after N] [--batch-bytes N]`: copies an event log written before sealing into a
// new log, sealing its personal data and content on the way (shared/erasure/log-migration.ts), with a progress
// bar on stderr. The key store is the one the services use (DATA_DIR/keys.sqlite, or MONGODB_URL's), which must
// be the one the source was written with. Stop the services that write the source first (docs/operations/migrate-log.md,
// "Switching over"). Exit codes: 0 copied (or stopped at --stop-after), 1 refused or failed, 2 bad arguments, 3 the
// source was written during the copy (stop its writers and run again: the copy resumes).
import { loadConfig } from "../../shared/config/config.ts";
import { LogMigrationError, migrateLog, type MigrationProgress } from "../../shared/erasure/log-migration.ts";
import { SealingEventStore } from "../../shared/erasure/sealing-event-store.ts";
import { KeyStoreError } from "../../shared/erasure/key-store.port.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { sealedEventStore } from "../wiring/erasure.ts";
import {
  describeLog,
  openSource,
  openTarget,
  parseMigrateLogArgs,
  type MigrateLogArgs,
  type OpenedLog,
} from "./migrate-log-stores.ts";

const USAGE = `usage: npm run migrate-log -- --to FILE | --to-namespace NAMESPACE [--to-url URL]
  [--from FILE | --from-url URL --from-namespace NAMESPACE] [--stop-after N] [--batch-bytes N]
  Copies the event log (by default the one the services use) into a new log, sealing personal data and
  content and renaming address streams. Run it again to continue a copy cut short.`;

/** Events per batch read from the source at most; bytes per batch are PROJECTION_BATCH_BYTES or --batch-bytes. */
const BATCH_EVENTS = 1_000;

const config = loadConfig();
let args: MigrateLogArgs;
try {
  args = parseMigrateLogArgs(process.argv.slice(2), config);
} catch (error) {
  process.stderr.write(`migrate-log: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}

const width = 30;
const onProgress = ({ copied, position, head }: MigrationProgress) => {
  const share = head === 0 ? 1 : Math.min(position / head, 1);
  const filled = Math.round(share * width);
  process.stderr.write(
    `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${copied.toLocaleString()} events in the new log`,
  );
};

let source: OpenedLog | null = null;
let sealedSource: EventStore | null = null;
let target: EventStore | null = null;
try {
  source = await openSource(args.from);
  // The key store is checked against the source: the one it was written with (a new one for a log from before sealing).
  const { eventStore, erasure } = await sealedEventStore(config, source.store, { recordBinding: false });
  sealedSource = eventStore;
  target = await openTarget(args.to, args.from);
  const sealedTarget = new SealingEventStore(target, erasure.keys, erasure.kek, { keepSealed: true });
  process.stderr.write(`copying ${describeLog(args.from)} into ${describeLog(args.to)}\n`);
  const result = await migrateLog(
    {
      source: source.store,
      target,
      sealedTarget,
      keys: erasure.keys,
      addressHash: (address) => erasure.kek.addressHash(address),
    },
    {
      bounds: { maxEvents: BATCH_EVENTS, maxBytes: args.batchBytes ?? config.PROJECTION_BATCH_BYTES },
      onProgress,
      ...(args.stopAfter === null ? {} : { stopAfter: args.stopAfter }),
    },
  );
  process.stderr.write("\n");
  const resumed =
    result.alreadyCopied > 0 ? ` (${result.alreadyCopied.toLocaleString()} of them by an earlier run, checked)` : "";
  const erasures =
    result.erasures > 0
      ? `; ${result.erasures.toLocaleString()} erasures recorded before sealing made what they erased unreadable`
      : "";
  process.stdout.write(`${result.copied.toLocaleString()} events in the new log${resumed}${erasures}\n`);
  if (!result.complete)
    process.stdout.write("stopped at --stop-after before the end of the source: run again to continue\n");
  else if (result.headAtEnd > result.head) {
    process.stderr.write(
      "migrate-log: the source was written during the copy: stop its writers and run this again to copy the rest\n",
    );
    process.exitCode = 3;
  } else
    process.stdout.write(
      'the copy is complete: switch the services to the new log (docs/operations/migrate-log.md, "Switching over")\n',
    );
} catch (error) {
  if (!(error instanceof LogMigrationError || error instanceof KeyStoreError)) throw error;
  process.stderr.write(`\nmigrate-log: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  source?.release();
  await target?.close();
  // Closes the source store and the key store with it.
  await (sealedSource ?? source?.store)?.close();
}
