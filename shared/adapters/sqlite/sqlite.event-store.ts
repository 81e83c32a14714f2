// EventStore on one SQLite file (better-sqlite3, WAL): one events table, global autoincrement position.
import Database from "better-sqlite3";
import { openDatabase, PAGE_CACHE_MB } from "./open-database.ts";
import { WalCheckpointer } from "./wal-checkpointer.ts";
import { catchUpSubscription } from "../../event-store/catch-up-subscription.ts";
import {
  eventMetadataSchema,
  StreamConflictError,
  type AppendResult,
  DEFAULT_SUBSCRIPTION_BYTES,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamRead,
  type Subscription,
  type SubscriptionOptions,
} from "../../event-store/event-store.port.ts";

/** The events table's columns are all NOT NULL with these types, so rows need no second check. */
type Row = [
  position: number,
  id: string,
  stream: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
];
const COLUMNS = "position, id, stream, revision, type, data, metadata";
/** System events ($-prefixed types) stay in their streams but out of the global log (see the port). */
const NOT_SYSTEM = "type NOT LIKE '$%'";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  UNIQUE (stream, revision)
);`;

/** An append waiting for the next group commit. */
interface QueuedAppend {
  readonly stream: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

function toRecorded([position, id, stream, revision, type, data, metadata]: Row): RecordedEvent {
  return {
    id,
    type,
    stream,
    revision,
    position,
    data: JSON.parse(data) as unknown,
    metadata: eventMetadataSchema.parse(JSON.parse(metadata)),
  };
}

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly listeners = new Set<() => void>();
  private readonly statements;
  private readonly appendOne;
  private readonly commitGroup;
  private queue: QueuedAppend[] = [];
  private drainScheduled = false;
  private readonly walCheckpoints: WalCheckpointer;

  /**
   * `groupCommit`: an append waits for the next turn of the event loop, and the appends queued by then (a
   * server's concurrent requests) share one transaction. A lone writer awaiting each append pays that turn
   * every time (about half its rate in the benchmark's append row), so only the servers' stores ask for it.
   */
  private readonly groupCommit: boolean;
  private readonly pollMs: number;

  constructor(filename: string, options: { pollMs?: number; groupCommit?: boolean } = {}) {
    this.pollMs = options.pollMs ?? 250;
    this.groupCommit = options.groupCommit ?? false;
    this.db = openDatabase(filename, { cacheMb: PAGE_CACHE_MB.log });
    this.db.exec(SCHEMA);
    this.walCheckpoints = new WalCheckpointer(this.db, filename);
    this.statements = {
      revision: this.db.prepare<[string], { revision: number | null }>(
        "SELECT MAX(revision) AS revision FROM events WHERE stream = ?",
      ),
      byId: this.db.prepare<[string], { stream: string; revision: number; position: number }>(
        "SELECT stream, revision, position FROM events WHERE id = ?",
      ),
      insert: this.db.prepare(
        "INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      stream: this.db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM events WHERE stream = ? ORDER BY revision`).raw(),
      all: this.db
        .prepare<[number, number], Row>(
          `SELECT ${COLUMNS} FROM events WHERE position > ? AND ${NOT_SYSTEM} ORDER BY position LIMIT CAST(? AS INTEGER)`,
        )
        .raw(),
      // Sizes first, without loading the events: octet_length reads the length of a value, not its content.
      sizes: this.db
        .prepare<[number, number], [number, number]>(
          `SELECT position, octet_length(data) + octet_length(metadata) FROM events WHERE position > ? AND ${NOT_SYSTEM} ORDER BY position LIMIT CAST(? AS INTEGER)`,
        )
        .raw(),
      range: this.db
        .prepare<[number, number], Row>(
          `SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? AND ${NOT_SYSTEM} ORDER BY position`,
        )
        .raw(),
      head: this.db.prepare<[], { head: number | null }>(
        `SELECT position AS head FROM events WHERE ${NOT_SYSTEM} ORDER BY position DESC LIMIT 1`,
      ),
    };
    // Called inside the group's transaction, so better-sqlite3 runs each append in a savepoint of its own: a
    // conflict or a constraint refusal rolls back that append alone.
    this.appendOne = this.db.transaction(
      (stream: string, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult => {
        const replay = this.previousAppend(stream, events);
        if (replay) return replay;
        const current = this.statements.revision.get(stream)?.revision ?? -1;
        const matches = expected === "any" || (expected === "no_stream" ? current === -1 : expected === current);
        if (!matches) throw new StreamConflictError(stream, expected, current);
        let revision = current;
        let position = 0;
        for (const event of events) {
          revision += 1;
          const info = this.statements.insert.run(
            event.id,
            stream,
            revision,
            event.type,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata),
          );
          position = Number(info.lastInsertRowid);
        }
        return { nextRevision: revision, position };
      },
    );
    this.commitGroup = this.db.transaction((group: readonly QueuedAppend[]) =>
      group.map((append): Outcome => {
        try {
          return { ok: true, result: this.appendOne(append.stream, append.events, append.expected) };
        } catch (error) {
          return { ok: false, error: this.asConflict(error, append) };
        }
      }),
    );
  }

  private asConflict(error: unknown, append: Pick<QueuedAppend, "stream" | "expected">): unknown {
    if (error instanceof Database.SqliteError && error.code.startsWith("SQLITE_CONSTRAINT")) {
      return new StreamConflictError(
        append.stream,
        append.expected,
        this.statements.revision.get(append.stream)?.revision ?? -1,
      );
    }
    return error;
  }

  /**
   * An append whose events were all stored before (same ids, same stream, in order) is answered as it was, not
   * repeated. Only the first id is looked up on the normal path: the UNIQUE(id) constraint refuses any other
   * overlap, and that refusal is reported as a conflict.
   */
  private previousAppend(stream: string, events: readonly NewEvent[]): AppendResult | null {
    const first = events[0];
    if (!first || this.statements.byId.get(first.id) === undefined) return null;
    const known = events.map((event) => this.statements.byId.get(event.id));
    const consistent = known.every(
      (row, index) => row !== undefined && row.stream === stream && row.revision === (known[0]?.revision ?? 0) + index,
    );
    const last = known[known.length - 1];
    if (!consistent || !last)
      throw new StreamConflictError(stream, "any", this.statements.revision.get(stream)?.revision ?? -1);
    return { nextRevision: last.revision, position: last.position };
  }

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) {
      const current = this.statements.revision.get(stream)?.revision ?? -1;
      return { nextRevision: current, position: await this.headPosition() };
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expected: expectedRevision, resolve, reject });
      if (!this.groupCommit) return this.drain();
      if (this.drainScheduled) return;
      this.drainScheduled = true;
      setImmediate(() => this.drain());
    });
  }

  /**
   * Writes the queued appends in one transaction: with group commit, those queued since the last drain
   * (concurrent requests reach append() within one turn of the event loop), so they share its commit.
   * better-sqlite3 is synchronous, so no transaction is open across turns; each append is still checked
   * against its own expected revision, in its own savepoint.
   */
  private drain(): void {
    this.drainScheduled = false;
    const group = this.queue;
    this.queue = [];
    if (group.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.commitGroup.immediate(group);
    } catch (error) {
      for (const append of group) append.reject(error);
      return;
    }
    this.walCheckpoints.afterCommit();
    for (const listener of this.listeners) listener();
    outcomes.forEach((outcome, index) => {
      const append = group[index];
      if (!append) return;
      if (outcome.ok) append.resolve(outcome.result);
      else append.reject(outcome.error);
    });
  }

  async read(stream: string): Promise<StreamRead> {
    const events = this.statements.stream.all(stream).map(toRecorded);
    return { revision: events.at(-1)?.revision ?? -1, events };
  }

  async readAll(afterPosition: number, limit: number, maxBytes?: number): Promise<RecordedEvent[]> {
    if (maxBytes === undefined) return this.statements.all.all(afterPosition, limit).map(toRecorded);
    let last = afterPosition;
    let bytes = 0;
    for (const [position, size] of this.statements.sizes.all(afterPosition, limit)) {
      if (last !== afterPosition && bytes + size > maxBytes) break;
      bytes += size;
      last = position;
    }
    return last === afterPosition ? [] : this.statements.range.all(afterPosition, last).map(toRecorded);
  }

  async headPosition(): Promise<number> {
    return this.statements.head.get()?.head ?? 0;
  }

  subscribe(afterPosition: number, handler: BatchHandler, options: SubscriptionOptions = {}): Subscription {
    return catchUpSubscription({
      afterPosition,
      batchSize: options.batchSize ?? 500,
      maxBytes: options.maxBytes ?? DEFAULT_SUBSCRIPTION_BYTES,
      pollMs: this.pollMs,
      readAll: (after, limit, maxBytes) => this.readAll(after, limit, maxBytes),
      wake: {
        onAppend: (listener) => {
          this.listeners.add(listener);
          return () => this.listeners.delete(listener);
        },
      },
      handler,
    });
  }

  async close(): Promise<void> {
    this.drain();
    this.listeners.clear();
    await this.walCheckpoints.close();
    this.db.close();
  }
}
