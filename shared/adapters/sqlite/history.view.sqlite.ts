// The history change log in SQLite: one row per entry, keyed by global position; the event and its summary are
// kept as JSON and validated when read back. History pages and the feed select the summary columns only, so
// they never read an event's markdown; each entity's fold (without markdown) is one row of history_fold. A
// page event's row also keeps how many page events the page had by then (`page_events`), so a read as of an
// instant takes the page's revision from one row instead of counting its history.
import type Database from "better-sqlite3";
import { z } from "zod";
import { domainEventSchema } from "../../events.ts";
import { storedChangeSchema, type Summary } from "../../history/change-summary.ts";
import {
  countsPageEvents,
  PAGE_EVENT_TYPES,
  storedFoldSchema,
  type ChangesPage,
  type HistoryAccess,
  type HistoryChange,
  type HistoryEntry,
  type HistoryView,
  type HistoryWriter,
  type StoredFold,
} from "../../history/history.view.ts";
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
  token_id TEXT,
  type TEXT NOT NULL,
  occurred_ms INTEGER NOT NULL,
  sharing INTEGER NOT NULL,
  change TEXT NOT NULL,
  event TEXT NOT NULL,
  page_events INTEGER
);
CREATE INDEX IF NOT EXISTS history_entity ON history (entity_id, position);
CREATE INDEX IF NOT EXISTS history_entity_type ON history (entity_id, type, position, occurred_ms);
CREATE INDEX IF NOT EXISTS history_entity_shown ON history (entity_id, sharing, position);
CREATE TABLE IF NOT EXISTS history_fold (
  entity_id TEXT PRIMARY KEY,
  fold TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history_page_events (
  entity_id TEXT PRIMARY KEY,
  page_events INTEGER NOT NULL
) WITHOUT ROWID;`;
// Every index is a query index, dropped during a rebuild: the writer reads the history by position only, and
// looks a thread's page up in comment_threads (random inserts into history_entity were a tenth of a replay).
export const historyModel: SqliteModel = {
  schema,
  tables: ["history", "history_fold", "history_page_events"],
  queryIndexes: ["history_entity", "history_entity_type", "history_entity_shown"],
};

// Only what an entry is made of: a summary's JSON is not read back for a fold.
const ENTRY_COLUMNS =
  "position, entity_kind, entity_id, access_kind, access_id, occurred_at, actor_id, correlation_id, token_id, event, page_events";
const latestOf = (type: string) =>
  `SELECT * FROM (SELECT ${ENTRY_COLUMNS} FROM history WHERE entity_id = @id AND type = '${type}' AND position <= @position AND occurred_ms <= @ms ORDER BY position DESC LIMIT 1)`;

type Bounds = { id: string; position: number; ms: number };

type ChangeRow = {
  position: number;
  entity_kind: string;
  entity_id: string;
  access_kind: string;
  access_id: string;
  occurred_at: string;
  actor_id: string;
  correlation_id: string;
  token_id: string | null;
  type: string;
  sharing: number;
  change: string;
};
type Row = Omit<ChangeRow, "type" | "sharing" | "change"> & { event: string; page_events: number | null };

const CHANGE_COLUMNS =
  "position, entity_kind, entity_id, access_kind, access_id, occurred_at, actor_id, correlation_id, token_id, type, sharing, change";

const accessSchema = z.object({ kind: z.enum(["page", "folder", "workspace"]), id: z.string() });
const entityKindSchema = z.enum(["page", "folder", "thread", "group"]);

/** What an entry and a change both say of a row: where it stands, whose access covers it, who and when. */
const headOf = (row: Row | ChangeRow) => ({
  position: row.position,
  entityKind: entityKindSchema.parse(row.entity_kind),
  entityId: row.entity_id,
  access: accessSchema.parse({ kind: row.access_kind, id: row.access_id }),
  occurredAt: row.occurred_at,
  actorId: row.actor_id,
  // Absent rather than null for a session's change: entries recorded before tokens were named read the same.
  ...(row.token_id === null ? {} : { tokenId: row.token_id }),
  correlationId: row.correlation_id,
});

const toEntry = (row: Row): HistoryEntry => ({ ...headOf(row), event: domainEventSchema.parse(JSON.parse(row.event)) });

const toChange = (row: ChangeRow): HistoryChange => ({
  ...headOf(row),
  type: row.type,
  change: storedChangeSchema.parse(JSON.parse(row.change)),
  sharing: row.sharing === 1,
});

/** A page event's row always has its count (the writer sets it); any other row has none. */
const pageEventsSchema = z.number().int().positive();

const markdownOf = (eventJson: string): string | null => {
  const event = domainEventSchema.parse(JSON.parse(eventJson));
  return event.type === "PageCreated" || event.type === "PageContentReplaced" || event.type === "PageRestored"
    ? event.data.markdown
    : null;
};

export class SqliteHistoryWriter implements HistoryWriter<SqliteBatch> {
  private readonly statements;
  /** Each batch's page event counts so far, per page: read once per page per batch, stored when it commits. */
  private readonly pageEvents = new WeakMap<SqliteBatch, Map<string, number>>();

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO history (position, entity_kind, entity_id, access_kind, access_id, occurred_at, actor_id, correlation_id, token_id, type, occurred_ms, sharing, change, event, page_events)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      pageEventsOf: db
        .prepare<[string], number>("SELECT page_events FROM history_page_events WHERE entity_id = ?")
        .pluck(),
      putPageEvents: db.prepare<[string, number]>(
        "INSERT OR REPLACE INTO history_page_events (entity_id, page_events) VALUES (?, ?)",
      ),
      foldOf: db.prepare<[string], string>("SELECT fold FROM history_fold WHERE entity_id = ?").pluck(),
      putFold: db.prepare<[string, string]>("INSERT OR REPLACE INTO history_fold (entity_id, fold) VALUES (?, ?)"),
      eventAt: db.prepare<[number], string>("SELECT event FROM history WHERE position = ?").pluck(),
      // Only threads have their access recorded rather than named by their events (see history.projection.ts),
      // and a thread's access is its page, which the threads model (this file, this batch) holds from the
      // ThreadOpened on: the projector always finds it there. The history's first entry answers otherwise
      // (the writer used on its own), through history_entity outside a rebuild.
      threadPage: db.prepare<[string], Pick<Row, "access_kind" | "access_id">>(
        "SELECT 'page' AS access_kind, page_id AS access_id FROM comment_threads WHERE id = ?",
      ),
      accessOf: db.prepare<[string], Pick<Row, "access_kind" | "access_id">>(
        "SELECT access_kind, access_id FROM history WHERE entity_id = ? ORDER BY position LIMIT 1",
      ),
      // Through history_entity; during a rebuild (its query indexes set aside) a purge scans the table instead.
      forget: db.prepare<[string]>("DELETE FROM history WHERE entity_id = ?"),
      forgetFold: db.prepare<[string]>("DELETE FROM history_fold WHERE entity_id = ?"),
      forgetPageEvents: db.prepare<[string]>("DELETE FROM history_page_events WHERE entity_id = ?"),
    };
  }

  async record(tx: SqliteBatch, entry: HistoryEntry, summary: Summary): Promise<void> {
    this.statements.insert.run(
      entry.position,
      entry.entityKind,
      entry.entityId,
      entry.access.kind,
      entry.access.id,
      entry.occurredAt,
      entry.actorId,
      entry.correlationId,
      entry.tokenId ?? null,
      entry.event.type,
      Date.parse(entry.occurredAt),
      summary.sharing ? 1 : 0,
      JSON.stringify(summary.change),
      JSON.stringify(entry.event),
      this.pageEventsWith(tx, entry),
    );
  }

  /**
   * How many page events the page has had once this entry is in; null for any other entry. Counted in memory
   * for the batch, from the stored count of the page's earlier batches (a lookup by key: a rebuild drops the
   * history's indexes, so counting the page's rows would scan the table), and stored when the batch commits.
   */
  private pageEventsWith(tx: SqliteBatch, entry: HistoryEntry): number | null {
    if (!countsPageEvents(entry)) return null;
    let counts = this.pageEvents.get(tx);
    if (!counts) {
      const batchCounts = new Map<string, number>();
      tx.onBeforeCommit(() => {
        for (const [pageId, count] of batchCounts) this.statements.putPageEvents.run(pageId, count);
      });
      this.pageEvents.set(tx, batchCounts);
      counts = batchCounts;
    }
    const count = (counts.get(entry.entityId) ?? this.statements.pageEventsOf.get(entry.entityId) ?? 0) + 1;
    counts.set(entry.entityId, count);
    return count;
  }

  async foldOf(_tx: SqliteBatch, entityId: string): Promise<StoredFold | null> {
    const fold = this.statements.foldOf.get(entityId);
    return fold === undefined ? null : storedFoldSchema.parse(JSON.parse(fold));
  }

  async putFolds(_tx: SqliteBatch, folds: ReadonlyMap<string, StoredFold>): Promise<void> {
    for (const [entityId, fold] of folds) this.statements.putFold.run(entityId, JSON.stringify(fold));
  }

  async markdownAt(_tx: SqliteBatch, position: number): Promise<string | null> {
    const event = this.statements.eventAt.get(position);
    return event === undefined ? null : markdownOf(event);
  }

  async forget(tx: SqliteBatch, entityIds: readonly string[]): Promise<void> {
    const counts = this.pageEvents.get(tx);
    for (const entityId of entityIds) {
      this.statements.forget.run(entityId);
      this.statements.forgetFold.run(entityId);
      this.statements.forgetPageEvents.run(entityId);
      // Its count, held for this batch's commit, must not write the row back.
      counts?.delete(entityId);
    }
  }

  async accessOf(_tx: SqliteBatch, entityId: string): Promise<HistoryAccess | null> {
    const row = this.statements.threadPage.get(entityId) ?? this.statements.accessOf.get(entityId);
    return row ? accessSchema.parse({ kind: row.access_kind, id: row.access_id }) : null;
  }
}

export class SqliteHistoryView implements HistoryView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      first: db.prepare<[string], Row>("SELECT * FROM history WHERE entity_id = ? ORDER BY position LIMIT 1"),
      // One statement per order and audience, so each walks its index in order and stops after `limit` rows.
      ascending: db.prepare<[string, number, number], ChangeRow>(
        `SELECT ${CHANGE_COLUMNS} FROM history WHERE entity_id = ? AND position > ? ORDER BY position LIMIT CAST(? AS INTEGER)`,
      ),
      descending: db.prepare<[string, number, number], ChangeRow>(
        `SELECT ${CHANGE_COLUMNS} FROM history WHERE entity_id = ? AND position < ? ORDER BY position DESC LIMIT CAST(? AS INTEGER)`,
      ),
      ascendingShown: db.prepare<[string, number, number], ChangeRow>(
        `SELECT ${CHANGE_COLUMNS} FROM history WHERE entity_id = ? AND sharing = 0 AND position > ? ORDER BY position LIMIT CAST(? AS INTEGER)`,
      ),
      descendingShown: db.prepare<[string, number, number], ChangeRow>(
        `SELECT ${CHANGE_COLUMNS} FROM history WHERE entity_id = ? AND sharing = 0 AND position < ? ORDER BY position DESC LIMIT CAST(? AS INTEGER)`,
      ),
      after: db.prepare<[number, number], ChangeRow>(
        `SELECT ${CHANGE_COLUMNS} FROM history WHERE position > ? ORDER BY position LIMIT CAST(? AS INTEGER)`,
      ),
      pageState: db.prepare<[Bounds], Row>(`${PAGE_EVENT_TYPES.map(latestOf).join(" UNION ALL ")} ORDER BY position`),
    };
  }

  async pageStateAt(pageId: string, instant: Instant): Promise<{ entries: HistoryEntry[]; count: number }> {
    const bounds: Bounds = {
      id: pageId,
      position:
        instant.kind === "position" ? Math.min(instant.position, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER,
      ms: instant.kind === "time" ? instant.ms : Number.MAX_SAFE_INTEGER,
    };
    const rows = this.statements.pageState.all(bounds);
    // The latest page entry up to the instant counts the page's events up to it (the rows come oldest first).
    const latest = rows[rows.length - 1];
    return { entries: rows.map(toEntry), count: latest ? pageEventsSchema.parse(latest.page_events) : 0 };
  }

  async changesOf(entityId: string, page: ChangesPage): Promise<HistoryChange[]> {
    const { ascending, descending, ascendingShown, descendingShown } = this.statements;
    const statement =
      page.order === "asc"
        ? page.withSharing
          ? ascending
          : ascendingShown
        : page.withSharing
          ? descending
          : descendingShown;
    const from = page.from ?? (page.order === "asc" ? 0 : Number.MAX_SAFE_INTEGER);
    return statement.all(entityId, from, page.limit).map(toChange);
  }

  async firstEntryOf(entityId: string): Promise<HistoryEntry | null> {
    const row = this.statements.first.get(entityId);
    return row ? toEntry(row) : null;
  }

  async changesAfter(afterPosition: number, limit: number): Promise<HistoryChange[]> {
    return this.statements.after.all(afterPosition, limit).map(toChange);
  }
}
