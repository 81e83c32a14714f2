// Parked events (shared/read-store/parked-events.port.ts) in the read models' file, written in the batch's
// transaction. Emptied by a rebuild, which parks again whatever still fails.
import type Database from "better-sqlite3";
import { z } from "zod";
import {
  PROJECTION_NAMES,
  parkedKey,
  type ParkedEvent,
  type ParkedEventsStore,
  type ProjectionName,
} from "../../read-store/parked-events.port.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

export const parkedEventsModel: SqliteModel = {
  schema: `
CREATE TABLE IF NOT EXISTS parked_events (
  projection TEXT NOT NULL,
  event_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  stream TEXT NOT NULL,
  type TEXT NOT NULL,
  cause TEXT NOT NULL,
  error TEXT NOT NULL,
  parked_at TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  PRIMARY KEY (projection, event_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS parked_events_by_stream ON parked_events (stream, projection);
CREATE INDEX IF NOT EXISTS parked_events_by_position ON parked_events (position);`,
  tables: ["parked_events"],
  queryIndexes: [],
};

const row = z.object({
  projection: z.enum(PROJECTION_NAMES),
  event_id: z.string(),
  position: z.number().int(),
  stream: z.string(),
  type: z.string(),
  cause: z.enum(["failed", "behind"]),
  error: z.string(),
  parked_at: z.string(),
  attempts: z.number().int(),
});

const fromRow = (value: unknown): ParkedEvent => {
  const parsed = row.parse(value);
  return {
    eventId: parsed.event_id,
    position: parsed.position,
    stream: parsed.stream,
    type: parsed.type,
    projection: parsed.projection,
    cause: parsed.cause,
    error: parsed.error,
    parkedAt: parsed.parked_at,
    attempts: parsed.attempts,
  };
};

const pair = z.object({ projection: z.enum(PROJECTION_NAMES), stream: z.string() });

export class SqliteParkedEvents implements ParkedEventsStore<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      park: db.prepare(
        `INSERT INTO parked_events (projection, event_id, position, stream, type, cause, error, parked_at, attempts)
         VALUES (@projection, @eventId, @position, @stream, @type, @cause, @error, @parkedAt, @attempts)
         ON CONFLICT (projection, event_id) DO UPDATE SET cause = excluded.cause, error = excluded.error, attempts = parked_events.attempts + 1`,
      ),
      list: db.prepare(
        "SELECT * FROM parked_events WHERE position > ? ORDER BY position, projection LIMIT CAST(? AS INTEGER)",
      ),
      failedAgain: db.prepare(
        "UPDATE parked_events SET error = ?, cause = 'failed', attempts = attempts + 1 WHERE projection = ? AND event_id = ?",
      ),
      remove: db.prepare("DELETE FROM parked_events WHERE projection = ? AND event_id = ?"),
      count: db.prepare<[], number>("SELECT COUNT(*) FROM parked_events").pluck(),
      // Bounded by the batch's streams; json_each keeps it one statement (prepared once) whatever their number.
      blocked: db.prepare<[string]>(
        "SELECT DISTINCT projection, stream FROM parked_events WHERE stream IN (SELECT value FROM json_each(?))",
      ),
    };
  }

  async park(_tx: SqliteBatch, record: ParkedEvent): Promise<void> {
    this.statements.park.run(record);
  }

  async blocked(_tx: SqliteBatch, streams: readonly string[]): Promise<Set<string>> {
    const keys = new Set<string>();
    if (streams.length === 0) return keys;
    const rows = this.statements.blocked.all(JSON.stringify(streams));
    for (const value of rows) {
      const { projection, stream } = pair.parse(value);
      keys.add(parkedKey(projection, stream));
    }
    return keys;
  }

  async list(_tx: SqliteBatch | null, options: { after: number; limit: number }): Promise<ParkedEvent[]> {
    return this.statements.list.all(options.after, options.limit).map(fromRow);
  }

  async failedAgain(_tx: SqliteBatch, projection: ProjectionName, eventId: string, error: string): Promise<void> {
    this.statements.failedAgain.run(error, projection, eventId);
  }

  async remove(_tx: SqliteBatch, projection: ProjectionName, eventId: string): Promise<boolean> {
    return this.statements.remove.run(projection, eventId).changes > 0;
  }

  async count(): Promise<number> {
    return this.statements.count.get() ?? 0;
  }
}
