// The webhook delivery log in its own SQLite file (DATA_DIR/webhooks.sqlite): not a read model, since it is not
// rebuilt from the event log, so it must survive the read models' rebuilds. Every notifier process and the APIs
// open it; WAL lets them read while one writes, and claims are single UPDATE ... RETURNING statements.
import type Database from "better-sqlite3";
import { z } from "zod";
import type { AttemptOutcome, DeliveryRecord, NewDelivery, ReplayJob, WebhookDeliveries } from "../../webhooks/webhook-deliveries.port.ts";
import { openDatabase, PAGE_CACHE_MB } from "./open-database.ts";

const schema = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  position INTEGER NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  last_response_status INTEGER,
  last_error TEXT,
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  next_attempt_at TEXT,
  lease_until TEXT
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_list ON webhook_deliveries (webhook_id, seq);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_leased ON webhook_deliveries (webhook_id, lease_until) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_created ON webhook_deliveries (created_at);
CREATE TABLE IF NOT EXISTS webhook_replays (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  cursor INTEGER NOT NULL,
  up_to INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_follower (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL
);
INSERT OR IGNORE INTO webhook_follower (id, position) VALUES (1, 0);`;

const rowSchema = z.object({
  seq: z.number(),
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  type: z.string(),
  position: z.number(),
  payload: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number(),
  last_response_status: z.number().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});

const toRecord = (row: unknown): DeliveryRecord => {
  const r = rowSchema.parse(row);
  return {
    seq: r.seq,
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    type: r.type,
    position: r.position,
    payload: r.payload,
    status: r.status,
    attempts: r.attempts,
    lastResponseStatus: r.last_response_status,
    lastError: r.last_error,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at,
    nextAttemptAt: r.next_attempt_at,
  };
};

const replaySchema = z.object({ id: z.string(), webhook_id: z.string(), cursor: z.number(), up_to: z.number(), created_at: z.string() });

export class SqliteWebhookDeliveries implements WebhookDeliveries {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(filename: string) {
    this.db = openDatabase(filename, { cacheMb: PAGE_CACHE_MB.log });
    this.db.exec(schema);
    this.statements = {
      checkpoint: this.db.prepare<[], number>("SELECT position FROM webhook_follower WHERE id = 1").pluck(),
      setCheckpoint: this.db.prepare<[number]>("UPDATE webhook_follower SET position = MAX(position, ?) WHERE id = 1"),
      insert: this.db.prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (id, webhook_id, event_id, type, position, payload, status, attempts, created_at, next_attempt_at)
         VALUES (@id, @webhookId, @eventId, @type, @position, @payload, 'pending', 0, @createdAt, @nextAttemptAt)`,
      ),
      // One row per webhook (its earliest due among the first due rows), skipping webhooks with a live lease: a
      // slow endpoint holds one slot. The inner LIMIT bounds the scan when many rows are due at once.
      claim: this.db.prepare<[{ leaseUntil: string; now: string; limit: number }]>(
        `UPDATE webhook_deliveries SET lease_until = @leaseUntil
         WHERE seq IN (
           SELECT MIN(seq) FROM (
             SELECT seq, webhook_id FROM webhook_deliveries d
             WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id AND o.status = 'pending' AND o.lease_until > @now)
             ORDER BY next_attempt_at, seq LIMIT 1000)
           GROUP BY webhook_id LIMIT CAST(@limit AS INTEGER))
         RETURNING *`,
      ),
      record: this.db.prepare(
        `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, last_response_status = @lastResponseStatus, last_error = @lastError,
           delivered_at = @deliveredAt, next_attempt_at = @nextAttemptAt, lease_until = NULL WHERE id = @id`,
      ),
      get: this.db.prepare<[string, string]>("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND id = ?"),
      list: this.db.prepare<[string, number, number]>("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND seq < ? ORDER BY seq DESC LIMIT CAST(? AS INTEGER)"),
      retry: this.db.prepare<[string, string, string]>("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE webhook_id = ? AND id = ?"),
      addReplay: this.db.prepare("INSERT OR IGNORE INTO webhook_replays (id, webhook_id, cursor, up_to, created_at) VALUES (@id, @webhookId, @cursor, @upTo, @createdAt)"),
      nextReplay: this.db.prepare("SELECT * FROM webhook_replays ORDER BY created_at, id LIMIT 1"),
      moveReplay: this.db.prepare<[number, string]>("UPDATE webhook_replays SET cursor = ? WHERE id = ?"),
      endReplay: this.db.prepare<[string]>("DELETE FROM webhook_replays WHERE id = ? AND cursor >= up_to"),
      purge: this.db.prepare<[string]>("DELETE FROM webhook_deliveries WHERE created_at < ?"),
      backlog: this.db.prepare<[], { pending: number; oldest: string | null }>("SELECT COUNT(*) AS pending, MIN(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'"),
    };
  }

  async followerCheckpoint(): Promise<number> {
    return this.statements.checkpoint.get() ?? 0;
  }

  async enqueue(rows: readonly NewDelivery[], checkpoint?: number): Promise<void> {
    this.db.transaction(() => {
      for (const row of rows) this.statements.insert.run(row);
      if (checkpoint !== undefined) this.statements.setCheckpoint.run(checkpoint);
    })();
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<DeliveryRecord[]> {
    return this.statements.claim.all({ leaseUntil, now, limit }).map(toRecord);
  }

  async record(id: string, outcome: AttemptOutcome): Promise<void> {
    this.statements.record.run({ id, ...outcome });
  }

  async get(webhookId: string, id: string): Promise<DeliveryRecord | null> {
    const row = this.statements.get.get(webhookId, id);
    return row ? toRecord(row) : null;
  }

  async list(webhookId: string, beforeSeq: number | null, limit: number): Promise<DeliveryRecord[]> {
    return this.statements.list.all(webhookId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit).map(toRecord);
  }

  async retry(webhookId: string, id: string, now: string): Promise<boolean> {
    return this.statements.retry.run(now, webhookId, id).changes > 0;
  }

  async addReplay(job: ReplayJob): Promise<void> {
    this.statements.addReplay.run(job);
  }

  async nextReplay(): Promise<ReplayJob | null> {
    const row = this.statements.nextReplay.get();
    if (!row) return null;
    const r = replaySchema.parse(row);
    return { id: r.id, webhookId: r.webhook_id, cursor: r.cursor, upTo: r.up_to, createdAt: r.created_at };
  }

  async advanceReplay(jobId: string, rows: readonly NewDelivery[], cursor: number): Promise<void> {
    this.db.transaction(() => {
      for (const row of rows) this.statements.insert.run(row);
      this.statements.moveReplay.run(cursor, jobId);
      this.statements.endReplay.run(jobId);
    })();
  }

  async purge(before: string): Promise<number> {
    return this.statements.purge.run(before).changes;
  }

  async backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }> {
    const row = this.statements.backlog.get();
    return { pending: row?.pending ?? 0, oldestCreatedAt: row?.oldest ?? null };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
