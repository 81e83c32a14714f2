// Where `npm run migrate-log` reads and writes: its arguments (parsed by zod) and the two logs they name, a
// SQLite file or an EventStoreDB namespace each. A SQLite source is locked against writers for the whole copy:
// the tool holds its write lock (BEGIN IMMEDIATE on a connection of its own; readers are not blocked in WAL
// mode), so a process still writing it makes the tool refuse at start, and one that tries during the copy waits
// and then fails, rather than writing an event the copy would miss. EventStoreDB has no such lock: the tool
// compares the source's head before and after the copy.
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { z } from "zod";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import type { Config } from "../../shared/config/config.ts";
import { LogMigrationError } from "../../shared/erasure/log-migration.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";

export type LogLocation =
  | { readonly kind: "sqlite"; readonly file: string }
  | { readonly kind: "eventstoredb"; readonly url: string; readonly namespace: string | null };

export interface MigrateLogArgs {
  readonly from: LogLocation;
  readonly to: LogLocation;
  readonly stopAfter: number | null;
  readonly batchBytes: number | null;
}

const esdbUrl = z
  .string()
  .regex(
    /^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover|kdb|kdb\+discover):\/\//,
    "must be an esdb:// or kurrentdb:// connection string",
  );
const namespace = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "letters, digits, '_' and '-', at most 64");
const flagsSchema = z.strictObject({
  from: z.string().min(1).optional(),
  to: z.string().min(1).optional(),
  "from-url": esdbUrl.optional(),
  "from-namespace": namespace.optional(),
  "to-url": esdbUrl.optional(),
  "to-namespace": namespace.optional(),
  "stop-after": z.coerce.number().int().min(1).optional(),
  "batch-bytes": z.coerce
    .number()
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .optional(),
});

export const describeLog = (location: LogLocation): string =>
  location.kind === "sqlite"
    ? location.file
    : `${location.url.replace(/\/\/[^@/]*@/, "//")} namespace ${location.namespace ?? "(none)"}`;

/** The source defaults to the log the services use (EVENTSTORE_URL and EVENTSTORE_NAMESPACE, or DATA_DIR). */
export function parseMigrateLogArgs(argv: readonly string[], config: Config): MigrateLogArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: Object.fromEntries(Object.keys(flagsSchema.shape).map((flag) => [flag, { type: "string" as const }])),
  });
  const parsed = flagsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LogMigrationError(`--${String(issue?.path[0] ?? "?")}: ${issue?.message ?? "invalid"}`);
  }
  const flags = parsed.data;
  if (flags.from !== undefined && (flags["from-url"] !== undefined || flags["from-namespace"] !== undefined))
    throw new LogMigrationError("--from: a file, or --from-url/--from-namespace, not both");
  const sourceUrl = flags["from-url"] ?? (flags.from === undefined ? config.EVENTSTORE_URL : undefined);
  const from: LogLocation =
    sourceUrl === undefined
      ? { kind: "sqlite", file: resolve(flags.from ?? join(config.DATA_DIR, "events.sqlite")) }
      : {
          kind: "eventstoredb",
          url: sourceUrl,
          namespace:
            flags["from-namespace"] ?? (flags["from-url"] === undefined ? (config.EVENTSTORE_NAMESPACE ?? null) : null),
        };
  const toServer = flags["to-url"] !== undefined || flags["to-namespace"] !== undefined;
  if (flags.to !== undefined && toServer)
    throw new LogMigrationError("--to: a file, or --to-url/--to-namespace, not both");
  let to: LogLocation;
  if (flags.to !== undefined) to = { kind: "sqlite", file: resolve(flags.to) };
  else if (toServer) {
    const url = flags["to-url"] ?? (from.kind === "eventstoredb" ? from.url : undefined);
    if (url === undefined)
      throw new LogMigrationError("--to-namespace: give --to-url too (the source is not on EventStoreDB)");
    to = { kind: "eventstoredb", url, namespace: flags["to-namespace"] ?? null };
  } else
    throw new LogMigrationError(
      "give the new log: --to FILE (SQLite), or --to-namespace NAMESPACE and/or --to-url URL (EventStoreDB)",
    );
  if (describeLog(from) === describeLog(to)) throw new LogMigrationError("the new log must not be the old one");
  return { from, to, stopAfter: flags["stop-after"] ?? null, batchBytes: flags["batch-bytes"] ?? null };
}

export interface OpenedLog {
  readonly store: EventStore;
  /** Lets writers in again (a SQLite source's lock); closes nothing else. */
  readonly release: () => void;
}

async function connect(location: Extract<LogLocation, { kind: "eventstoredb" }>): Promise<EventStore> {
  const { EventStoreDbEventStore } = await import("../../shared/adapters/eventstoredb/eventstoredb.event-store.ts");
  return EventStoreDbEventStore.connect(
    location.url,
    location.namespace === null ? {} : { namespace: location.namespace },
  );
}

const hasEventsTable = (file: string): boolean => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get() !== undefined;
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code === "SQLITE_NOTADB") return false;
    throw error;
  } finally {
    db.close();
  }
};

/** The old log, as stored, and locked against writers where the store allows it. */
export async function openSource(location: LogLocation): Promise<OpenedLog> {
  if (location.kind === "eventstoredb") return { store: await connect(location), release: () => undefined };
  if (!existsSync(location.file) || statSync(location.file).size === 0 || !hasEventsTable(location.file)) {
    throw new LogMigrationError(`${location.file} is not an event log`);
  }
  const store = new SqliteEventStore(location.file);
  const lock = new Database(location.file, { timeout: 2_000 });
  try {
    lock.exec("BEGIN IMMEDIATE");
  } catch (error) {
    lock.close();
    await store.close();
    if (error instanceof Database.SqliteError && error.code.startsWith("SQLITE_BUSY")) {
      throw new LogMigrationError(
        `${location.file} is being written (another process holds its write lock): stop the services that write it, then run this again`,
      );
    }
    throw error;
  }
  return {
    store,
    release: () => {
      lock.exec("ROLLBACK");
      lock.close();
    },
  };
}

/** The new log: a new (or partly copied) SQLite file, or an EventStoreDB namespace. */
export async function openTarget(location: LogLocation, source: LogLocation): Promise<EventStore> {
  if (location.kind === "eventstoredb") return connect(location);
  if (!existsSync(dirname(location.file))) throw new LogMigrationError(`${dirname(location.file)} does not exist`);
  if (existsSync(location.file)) {
    if (source.kind === "sqlite" && realpathSync(location.file) === realpathSync(source.file))
      throw new LogMigrationError("the new log must not be the old one");
    // An existing file is taken only as a copy begun by an earlier run (checked event by event); anything else is refused.
    if (statSync(location.file).size > 0 && !hasEventsTable(location.file))
      throw new LogMigrationError(`${location.file} exists and is not an event log: refusing to overwrite it`);
  }
  return new SqliteEventStore(location.file);
}
