// `npm run replay`: rebuilds every read model from the full event history, with a progress bar and the final
// events/s. On SQLite (DATA_DIR) stop the server first: the projector must not write while the read models are
// rebuilt. On MongoDB (MONGODB_URL) the services keep running: the history is replayed into a new generation
// of collections beside the live one, which switches over only once it has caught up (one replay at a time).
// `npm run replay -- --until <position or ISO time> [--out FILE]` replays the history only up to that instant
// into a separate read store (DATA_DIR/audit/… unless --out), for audit; the server may keep running. An erasure
// deletes the copies in DATA_DIR/audit that mention what it erases.
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { AUDIT_DIRECTORY } from "../../shared/adapters/files/audit-read-model-copies.ts";
import { SqliteProjectionStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { loadConfig, PRIVATE_DIRECTORY } from "../../shared/config/config.ts";
import type { Instant } from "../../shared/history/instant.ts";
import { openEventStore } from "../wiring/write-stores.ts";
import { openEmbeddedProjectionStore } from "../wiring/projector.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { parseReplayArgs, type ReplayArgs } from "./operator-args.ts";
import { rebuildReadModels, replayAndSwitch, type RebuildProgress } from "./rebuild.ts";
import { connectMongo, MongoProjectionStore } from "../../shared/adapters/mongodb/mongo.read-store.ts";

let args: ReplayArgs;
try {
  args = parseReplayArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`replay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const config = loadConfig();
const eventStore = await openEventStore(config);
const label = (until: Instant): string =>
  until.kind === "position"
    ? `position-${until.position}`
    : `time-${new Date(until.ms).toISOString().replace(/[:.]/g, "-")}`;
const auditDirectory = join(config.DATA_DIR, AUDIT_DIRECTORY);
const auditFile = args.until
  ? (args.out ?? join(auditDirectory, `read-models-until-${label(args.until)}.sqlite`))
  : null;
if (auditFile) mkdirSync(dirname(auditFile), { recursive: true, mode: PRIVATE_DIRECTORY });
// An erasure deletes the copies in DATA_DIR/audit that mention what it erases; it never sees a file elsewhere.
if (auditFile && resolve(dirname(auditFile)) !== resolve(auditDirectory)) {
  process.stderr.write(
    `replay: ${auditFile} is outside ${auditDirectory}: erasures will not reach it; delete it once the audit is done\n`,
  );
}
const width = 30;
const onProgress = ({ applied, head }: RebuildProgress) => {
  const share = head === 0 ? 1 : Math.min(applied / head, 1);
  const filled = Math.round(share * width);
  process.stderr.write(
    `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${applied.toLocaleString()} / ${head.toLocaleString()} events`,
  );
};
const logger = createLogger(config.LOG_LEVEL, "replay");
let store: { close(): Promise<void> };
let result: { applied: number; seconds: number; position: number };
if (!auditFile && config.MONGODB_URL) {
  const mongo = await MongoProjectionStore.openNextGeneration(await connectMongo(config.MONGODB_URL), {
    ownsClient: true,
  });
  store = mongo;
  process.stderr.write(
    `replaying into read-model generation ${mongo.generation}; the live one keeps serving until the switch\n`,
  );
  const switched = await replayAndSwitch({
    eventStore,
    store: mongo,
    logger,
    batchBytes: config.PROJECTION_BATCH_BYTES,
    onProgress,
  });
  process.stderr.write(
    `\nswitched to generation ${mongo.generation} at position ${switched.position}${switched.replaced === null ? "" : `; generation ${switched.replaced} dropped`}`,
  );
  result = switched;
} else {
  const sqlite = auditFile ? new SqliteProjectionStore(auditFile) : openEmbeddedProjectionStore(config);
  store = sqlite;
  result = await rebuildReadModels({
    eventStore,
    store: sqlite,
    logger,
    batchBytes: config.PROJECTION_BATCH_BYTES,
    ...(args.until ? { until: args.until } : {}),
    onProgress,
  });
}
process.stderr.write("\n");
process.stdout.write(
  `replayed ${result.applied.toLocaleString()} events in ${result.seconds.toFixed(1)} s (${Math.round(result.applied / Math.max(result.seconds, 1e-9)).toLocaleString()} events/s)\n`,
);
if (auditFile) process.stdout.write(`state as of position ${result.position} written to ${auditFile}\n`);
await store.close();
await eventStore.close();
