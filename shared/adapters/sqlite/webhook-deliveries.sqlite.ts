// The webhook delivery log in its own SQLite file (DATA_DIR/webhooks.sqlite): not a read model, since it is not
// rebuilt from the event log, so it must survive the read models' rebuilds. Every notifier process and the APIs
// open it; WAL lets them read while one writes, and a claim is one IMMEDIATE transaction.
// Beside the rows, `webhook_queues` keeps one row per webhook that ever had a delivery: when its earliest
// pending row is due, the lease of the row it has in flight, and when it was last served. Claims read that
// table, so their cost follows the number of webhooks looked at, never the number of rows queued.
// `webhook_erasures` holds the erased owners, whose rows for events up to their erasure are refused (until the
// retention purges the record). Deleted rows are overwritten (secure_delete) and a forgetting empties the WAL, so
// nothing of an erased owner's rows stays in the file's free space or its WAL.
import type Database from "better-sqlite3";
import { z } from "zod";
import {
  BACKLOG_COUNT_MAX,
  type AttemptOutcome,
  type DeliveryRecord,
  type NewDelivery,
  type OwnerErasure,
  type ReplayJob,
  type WebhookDeliveries,
} from "../../webhooks/webhook-deliveries.port.ts";
import { CLAIM_WINDOW, FairClaim } from "../../webhooks/fair-claim.ts";
import { openDatabase, PAGE_CACHE_MB } from "./open-database.ts";

/** The row a recorded attempt returns, when its webhook's claim is to be released. */
const releasedRowSchema = z.object({ webhook_id: z.string() }).optional();

const schema = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook_id TEXT NOT NULL,
  owner_id TEXT,
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
  lease_until TEXT,
  traceparent TEXT
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_list ON webhook_deliveries (webhook_id, seq);
CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (webhook_id, next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_created ON webhook_deliveries (created_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_pending_age ON webhook_deliveries (created_at) WHERE status = 'pending';
DROP INDEX IF EXISTS webhook_deliveries_due;
DROP INDEX IF EXISTS webhook_deliveries_leased;
CREATE TABLE IF NOT EXISTS webhook_queues (
  webhook_id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  due_at TEXT,
  leased_until TEXT,
  served_at TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS webhook_queues_served ON webhook_queues (served_at, webhook_id) WHERE due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhook_queues_leased ON webhook_queues (leased_until) WHERE leased_until IS NOT NULL;
CREATE TABLE IF NOT EXISTS webhook_replays (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  cursor INTEGER NOT NULL,
  up_to INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_replays_webhook ON webhook_replays (webhook_id);
CREATE TABLE IF NOT EXISTS webhook_erasures (
  owner_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  erased_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_erasures_at ON webhook_erasures (erased_at);
CREATE INDEX IF NOT EXISTS webhook_queues_owner ON webhook_queues (owner_id);
CREATE TABLE IF NOT EXISTS webhook_follower (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL
);
INSERT OR IGNORE INTO webhook_follower (id, position) VALUES (1, 0);`;

const rowSchema = z.object({
  seq: z.number(),
  id: z.string(),
  webhook_id: z.string(),
  owner_id: z.string().nullable(),
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
  traceparent: z.string().nullable().optional(),
});

const toRecord = (row: unknown): DeliveryRecord => {
  const r = rowSchema.parse(row);
  return {
    seq: r.seq,
    id: r.id,
    webhookId: r.webhook_id,
    ownerId: r.owner_id ?? r.webhook_id,
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
    traceparent: r.traceparent ?? null,
  };
};

const replaySchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  cursor: z.number(),
  up_to: z.number(),
  created_at: z.string(),
});
const candidateSchema = z.object({ webhook_id: z.string(), owner_id: z.string() });
const inFlightSchema = z.object({ owner_id: z.string(), n: z.number() });

/**
 * A file from before owners (or trace contexts) were recorded: add the columns (and the owner's index), and the
 * queues of the rows it holds.
 */
function migrate(db: Database.Database): void {
  const columns = z
    .array(z.object({ name: z.string() }))
    .parse(db.prepare("PRAGMA table_info(webhook_deliveries)").all());
  if (!columns.some((column) => column.name === "owner_id"))
    db.exec("ALTER TABLE webhook_deliveries ADD COLUMN owner_id TEXT");
  if (!columns.some((column) => column.name === "traceparent"))
    db.exec("ALTER TABLE webhook_deliveries ADD COLUMN traceparent TEXT");
  db.exec("CREATE INDEX IF NOT EXISTS webhook_deliveries_owner ON webhook_deliveries (owner_id, position)");
  db.exec(`INSERT OR IGNORE INTO webhook_queues (webhook_id, owner_id, due_at, leased_until)
    SELECT webhook_id, COALESCE(MAX(owner_id), webhook_id), MIN(next_attempt_at), MAX(lease_until) FROM webhook_deliveries WHERE status = 'pending' GROUP BY webhook_id`);
}

export class SqliteWebhookDeliveries implements WebhookDeliveries {
  private readonly db: Database.Database;
  private readonly statements;
  private readonly claimTx;

  constructor(filename: string) {
    this.db = openDatabase(filename, { cacheMb: PAGE_CACHE_MB.log });
    this.db.exec(schema);
    migrate(this.db);
    const earliestDue =
      "(SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE webhook_id = webhook_queues.webhook_id AND status = 'pending')";
    this.statements = {
      checkpoint: this.db.prepare<[], number>("SELECT position FROM webhook_follower WHERE id = 1").pluck(),
      setCheckpoint: this.db.prepare<[number]>("UPDATE webhook_follower SET position = MAX(position, ?) WHERE id = 1"),
      insert: this.db.prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (id, webhook_id, owner_id, event_id, type, position, payload, status, attempts, created_at, next_attempt_at, traceparent)
         SELECT @id, @webhookId, @ownerId, @eventId, @type, @position, @payload, 'pending', 0, @createdAt, @nextAttemptAt, @traceparent
         WHERE NOT EXISTS (SELECT 1 FROM webhook_erasures WHERE owner_id = @ownerId AND position >= @position)`,
      ),
      // The queue of a row made pending: due at the earlier of what it had and the row's time.
      queueRow: this.db.prepare<[string]>(
        `INSERT INTO webhook_queues (webhook_id, owner_id, due_at)
           SELECT webhook_id, COALESCE(owner_id, webhook_id), next_attempt_at FROM webhook_deliveries WHERE id = ?
         ON CONFLICT (webhook_id) DO UPDATE SET due_at = CASE WHEN due_at IS NULL OR excluded.due_at < due_at THEN excluded.due_at ELSE due_at END`,
      ),
      inFlight: this.db.prepare<[string]>(
        "SELECT owner_id, COUNT(*) AS n FROM webhook_queues WHERE leased_until > ? GROUP BY owner_id",
      ),
      // Owners at their cap are left out in the query, so their webhooks do not fill the window.
      candidates: this.db.prepare<[{ now: string; capped: string; window: number }]>(
        `SELECT webhook_id, owner_id FROM webhook_queues
         WHERE due_at IS NOT NULL AND due_at <= @now AND (leased_until IS NULL OR leased_until <= @now)
           AND owner_id NOT IN (SELECT value FROM json_each(@capped))
         ORDER BY served_at, webhook_id LIMIT CAST(@window AS INTEGER)`,
      ),
      leaseHead: this.db.prepare<[{ webhookId: string; now: string; leaseUntil: string }]>(
        `UPDATE webhook_deliveries SET lease_until = @leaseUntil WHERE seq = (
           SELECT seq FROM webhook_deliveries WHERE webhook_id = @webhookId AND status = 'pending' AND next_attempt_at <= @now
           ORDER BY next_attempt_at, seq LIMIT 1)
         RETURNING *`,
      ),
      leaseQueue: this.db.prepare<[{ webhookId: string; now: string; leaseUntil: string }]>(
        "UPDATE webhook_queues SET leased_until = @leaseUntil, served_at = @now WHERE webhook_id = @webhookId",
      ),
      refreshQueue: this.db.prepare<[string]>(`UPDATE webhook_queues SET due_at = ${earliestDue} WHERE webhook_id = ?`),
      record: this.db.prepare(
        `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, last_response_status = @lastResponseStatus, last_error = @lastError,
           delivered_at = @deliveredAt, next_attempt_at = @nextAttemptAt, lease_until = NULL WHERE id = @id RETURNING webhook_id`,
      ),
      release: this.db.prepare<[string]>(
        `UPDATE webhook_queues SET leased_until = NULL, due_at = ${earliestDue} WHERE webhook_id = ?`,
      ),
      get: this.db.prepare<[string, string]>("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND id = ?"),
      list: this.db.prepare<[string, number, number]>(
        "SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND seq < ? ORDER BY seq DESC LIMIT CAST(? AS INTEGER)",
      ),
      retry: this.db.prepare<[string, string, string]>(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE webhook_id = ? AND id = ?",
      ),
      addReplay: this.db.prepare(
        `INSERT OR IGNORE INTO webhook_replays (id, webhook_id, cursor, up_to, created_at)
         SELECT @id, @webhookId, @cursor, @upTo, @createdAt WHERE (SELECT COUNT(*) FROM webhook_replays WHERE webhook_id = @webhookId) < @atMost`,
      ),
      replays: this.db.prepare<[number]>(
        "SELECT * FROM webhook_replays ORDER BY created_at, id LIMIT CAST(? AS INTEGER)",
      ),
      undelivered: this.db
        .prepare<[string, number], number>(
          "SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' LIMIT CAST(? AS INTEGER))",
        )
        .pluck(),
      moveReplay: this.db.prepare<[number, string]>("UPDATE webhook_replays SET cursor = ? WHERE id = ?"),
      endReplay: this.db.prepare<[string]>("DELETE FROM webhook_replays WHERE id = ? AND cursor >= up_to"),
      purge: this.db.prepare<[string]>("DELETE FROM webhook_deliveries WHERE created_at < ?"),
      purgeErasures: this.db.prepare<[string]>("DELETE FROM webhook_erasures WHERE erased_at < ?"),
      recordErasure: this.db.prepare<[OwnerErasure]>(
        `INSERT INTO webhook_erasures (owner_id, position, erased_at) VALUES (@ownerId, @position, @erasedAt)
         ON CONFLICT (owner_id) DO UPDATE SET position = MAX(position, excluded.position), erased_at = MAX(erased_at, excluded.erased_at)`,
      ),
      forgetDeliveries: this.db.prepare<[OwnerErasure & { limit: number }]>(
        `DELETE FROM webhook_deliveries WHERE seq IN (
           SELECT seq FROM webhook_deliveries WHERE owner_id = @ownerId AND position <= @position LIMIT CAST(@limit AS INTEGER))`,
      ),
      forgetReplays: this.db.prepare<[OwnerErasure & { limit: number }]>(
        `DELETE FROM webhook_replays WHERE id IN (
           SELECT webhook_replays.id FROM webhook_queues JOIN webhook_replays ON webhook_replays.webhook_id = webhook_queues.webhook_id
           WHERE webhook_queues.owner_id = @ownerId AND webhook_replays.up_to <= @position LIMIT CAST(@limit AS INTEGER))`,
      ),
      // A queue goes once its webhook has no row left (the rows of an account registered afresh keep theirs), and
      // after its replays, so a call cut short by its limit finds them through it.
      forgetQueues: this.db.prepare<[OwnerErasure & { limit: number }]>(
        `DELETE FROM webhook_queues WHERE webhook_id IN (
           SELECT webhook_id FROM webhook_queues WHERE owner_id = @ownerId
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE webhook_deliveries.webhook_id = webhook_queues.webhook_id)
           LIMIT CAST(@limit AS INTEGER))`,
      ),
      refreshQueues: this.db.prepare(`UPDATE webhook_queues SET due_at = ${earliestDue}`),
      // Both read only the pending rows' partial index, the count at most BACKLOG_COUNT_MAX entries of it.
      backlog: this.db.prepare<[], { pending: number; oldest: string | null }>(
        `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' LIMIT ${BACKLOG_COUNT_MAX})) AS pending,
                (SELECT created_at FROM webhook_deliveries WHERE status = 'pending' ORDER BY created_at LIMIT 1) AS oldest`,
      ),
    };
    this.claimTx = this.db.transaction(
      (now: string, leaseUntil: string, limit: number, perOwner: number): DeliveryRecord[] => {
        const inFlight = this.statements.inFlight
          .all(now)
          .map((row) => inFlightSchema.parse(row))
          .map((row) => [row.owner_id, row.n] as const);
        const claim = new FairClaim(inFlight, limit, perOwner);
        const window = this.statements.candidates
          .all({ now, capped: JSON.stringify(claim.cappedOwners()), window: CLAIM_WINDOW })
          .map((row) => candidateSchema.parse(row));
        for (const candidate of claim.turns(window, (row) => row.owner_id)) {
          const [head] = this.statements.leaseHead.all({ webhookId: candidate.webhook_id, now, leaseUntil });
          if (!head) {
            this.statements.refreshQueue.run(candidate.webhook_id);
            continue;
          }
          this.statements.leaseQueue.run({ webhookId: candidate.webhook_id, now, leaseUntil });
          claim.leased(candidate.owner_id, toRecord(head));
        }
        return claim.claimed;
      },
    );
  }

  async followerCheckpoint(): Promise<number> {
    return this.statements.checkpoint.get() ?? 0;
  }

  private insertRows(rows: readonly NewDelivery[]): void {
    for (const row of rows) {
      if (this.statements.insert.run({ ...row, traceparent: row.traceparent ?? null }).changes > 0)
        this.statements.queueRow.run(row.id);
    }
  }

  async enqueue(rows: readonly NewDelivery[], checkpoint?: number): Promise<void> {
    this.db.transaction(() => {
      this.insertRows(rows);
      if (checkpoint !== undefined) this.statements.setCheckpoint.run(checkpoint);
    })();
  }

  async claimDue(now: string, leaseUntil: string, limit: number, perOwner: number): Promise<DeliveryRecord[]> {
    return this.claimTx.immediate(now, leaseUntil, limit, perOwner);
  }

  async record(id: string, outcome: AttemptOutcome): Promise<void> {
    this.db.transaction(() => {
      const [row] = this.statements.record.all({ id, ...outcome });
      const webhookId = releasedRowSchema.parse(row)?.webhook_id;
      if (webhookId !== undefined) this.statements.release.run(webhookId);
    })();
  }

  async get(webhookId: string, id: string): Promise<DeliveryRecord | null> {
    const row = this.statements.get.get(webhookId, id);
    return row ? toRecord(row) : null;
  }

  async list(webhookId: string, beforeSeq: number | null, limit: number): Promise<DeliveryRecord[]> {
    return this.statements.list.all(webhookId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit).map(toRecord);
  }

  async retry(webhookId: string, id: string, now: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.statements.retry.run(now, webhookId, id).changes === 0) return false;
      this.statements.queueRow.run(id);
      return true;
    })();
  }

  async addReplay(job: ReplayJob, atMost: number): Promise<boolean> {
    return this.statements.addReplay.run({ ...job, atMost }).changes > 0;
  }

  async replays(limit: number): Promise<ReplayJob[]> {
    return this.statements.replays.all(limit).map((row) => {
      const r = replaySchema.parse(row);
      return { id: r.id, webhookId: r.webhook_id, cursor: r.cursor, upTo: r.up_to, createdAt: r.created_at };
    });
  }

  async undelivered(webhookId: string, atMost: number): Promise<number> {
    return this.statements.undelivered.get(webhookId, atMost) ?? 0;
  }

  async advanceReplay(jobId: string, rows: readonly NewDelivery[], cursor: number): Promise<void> {
    this.db.transaction(() => {
      this.insertRows(rows);
      this.statements.moveReplay.run(cursor, jobId);
      this.statements.endReplay.run(jobId);
    })();
  }

  async forgetOwner(erasure: OwnerErasure, limit: number): Promise<number> {
    const { ownerId, position, erasedAt } = erasure;
    const deleted = this.db
      .transaction(() => {
        this.statements.recordErasure.run({ ownerId, position, erasedAt });
        let left = limit;
        left -= this.statements.forgetDeliveries.run({ ownerId, position, erasedAt, limit: left }).changes;
        if (left > 0) left -= this.statements.forgetReplays.run({ ownerId, position, erasedAt, limit: left }).changes;
        if (left > 0) left -= this.statements.forgetQueues.run({ ownerId, position, erasedAt, limit: left }).changes;
        return limit - left;
      })
      .immediate();
    // Copies the overwritten pages into the file and empties the WAL, where the rows' earlier pages stayed. A
    // reader of another process holding an older snapshot can make it stop short; the next call (a caller
    // repeats until one deletes nothing) completes it.
    this.db.pragma("wal_checkpoint(TRUNCATE)");
    return deleted;
  }

  async purge(before: string): Promise<number> {
    return this.db.transaction(() => {
      this.statements.purgeErasures.run(before);
      const purged = this.statements.purge.run(before).changes;
      if (purged > 0) this.statements.refreshQueues.run();
      return purged;
    })();
  }

  async backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }> {
    const row = this.statements.backlog.get();
    return { pending: row?.pending ?? 0, oldestCreatedAt: row?.oldest ?? null };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
