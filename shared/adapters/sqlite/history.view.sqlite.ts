// The history change log in SQLite: one row per entry, keyed by global position; the event is kept as JSON and
// validated against the event union when read back.
import type Database from "better-sqlite3";
import { z } from "zod";
import { domainEventSchema } from "../../events.ts";
import { pageEventSchemas } from "../../pages/page.decider.ts";
import type { HistoryAccess, HistoryEntry, HistoryView, HistoryWriter } from "../../history/history.view.ts";
import type { Instant } from "../../history/instant.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS history (
  position INTEGER PRIMARY KEY,
  entity_kind TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  access_kind TEXT NOT NULL,
  access_id TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  correlation_id TEXT NOT NULL,
  type TEXT NOT NULL,
  occurred_ms INTEGER NOT NULL,
  event TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_entity ON history (entity_id, position);
CREATE INDEX IF NOT EXISTS history_entity_type ON history (entity_id, type, position, occurred_ms);`;
// The index stays during a rebuild: the writer looks a thread's page up through it.
export const historyModel: SqliteModel = { schema, tables: ["history"], queryIndexes: ["history_entity_type"] };

const PAGE_EVENT_TYPES = pageEventSchemas.map((schema) => schema.shape.type.value);
const latestOf = (type: string) =>
  `SELECT * FROM (SELECT * FROM history WHERE entity_id = @id AND type = '${type}' AND position <= @position AND occurred_ms <= @ms ORDER BY position DESC LIMIT 1)`;

type Bounds = { id: string; position: number; ms: number };

type Row = {
  position: number;
  entity_kind: string;
  entity_id: string;
  access_kind: string;
  access_id: string;
  occurred_at: string;
  actor_id: string;
  correlation_id: string;
  event: string;
};

const accessSchema = z.object({ kind: z.enum(["page", "folder"]), id: z.string() });
const entityKindSchema = z.enum(["page", "folder", "thread"]);

const toEntry = (row: Row): HistoryEntry => ({
  position: row.position,
  entityKind: entityKindSchema.parse(row.entity_kind),
  entityId: row.entity_id,
  access: accessSchema.parse({ kind: row.access_kind, id: row.access_id }),
  occurredAt: row.occurred_at,
  actorId: row.actor_id,
  correlationId: row.correlation_id,
  event: domainEventSchema.parse(JSON.parse(row.event)),
});

export class SqliteHistoryWriter implements HistoryWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO history (position, entity_kind, entity_id, access_kind, access_id, occurred_at, actor_id, correlation_id, type, occurred_ms, event)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      accessOf: db.prepare<[string], Pick<Row, "access_kind" | "access_id">>(
        "SELECT access_kind, access_id FROM history WHERE entity_id = ? ORDER BY position LIMIT 1",
      ),
    };
  }

  async record(_tx: SqliteBatch, entry: HistoryEntry): Promise<void> {
    this.statements.insert.run(
      entry.position,
      entry.entityKind,
      entry.entityId,
      entry.access.kind,
      entry.access.id,
      entry.occurredAt,
      entry.actorId,
      entry.correlationId,
      entry.event.type,
      Date.parse(entry.occurredAt),
      JSON.stringify(entry.event),
    );
  }

  async accessOf(_tx: SqliteBatch, entityId: string): Promise<HistoryAccess | null> {
    const row = this.statements.accessOf.get(entityId);
    return row ? accessSchema.parse({ kind: row.access_kind, id: row.access_id }) : null;
  }
}

export class SqliteHistoryView implements HistoryView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      of: db.prepare<[string, number], Row>("SELECT * FROM history WHERE entity_id = ? AND position <= ? ORDER BY position"),
      after: db.prepare<[number, number], Row>("SELECT * FROM history WHERE position > ? ORDER BY position LIMIT CAST(? AS INTEGER)"),
      pageState: db.prepare<[Bounds], Row>(`${PAGE_EVENT_TYPES.map(latestOf).join(" UNION ALL ")} ORDER BY position`),
      pageCount: db
        .prepare<[Bounds], number>(
          `SELECT count(*) FROM history WHERE entity_id = @id AND type IN (${PAGE_EVENT_TYPES.map((t) => `'${t}'`).join(", ")}) AND position <= @position AND occurred_ms <= @ms`,
        )
        .pluck(),
    };
  }

  async pageStateAt(pageId: string, instant: Instant): Promise<{ entries: HistoryEntry[]; count: number }> {
    const bounds: Bounds = {
      id: pageId,
      position: instant.kind === "position" ? Math.min(instant.position, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER,
      ms: instant.kind === "time" ? instant.ms : Number.MAX_SAFE_INTEGER,
    };
    return { entries: this.statements.pageState.all(bounds).map(toEntry), count: this.statements.pageCount.get(bounds) ?? 0 };
  }

  async entriesOf(entityId: string, untilPosition = Number.MAX_SAFE_INTEGER): Promise<HistoryEntry[]> {
    return this.statements.of.all(entityId, untilPosition).map(toEntry);
  }

  async entriesAfter(afterPosition: number, limit: number): Promise<HistoryEntry[]> {
    return this.statements.after.all(afterPosition, limit).map(toEntry);
  }
}
