import type Database from "better-sqlite3";
import { z } from "zod";
import { webhookEventsSchema } from "../../webhooks/webhook-event-names.ts";
import type { WebhookRecord, WebhooksView, WebhooksWriter } from "../../webhooks/webhooks.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  folder_id TEXT,
  active INTEGER NOT NULL,
  disabled_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  position INTEGER NOT NULL,
  sealed_secret TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhooks_owner ON webhooks (owner_id, position);`;
export const webhooksModel: SqliteModel = { schema, tables: ["webhooks"], queryIndexes: [] };

const rowSchema = z.object({
  id: z.string(),
  owner_id: z.string(),
  url: z.string(),
  events: z.string().transform((text) => webhookEventsSchema.parse(JSON.parse(text))),
  description: z.string().nullable(),
  folder_id: z.string().nullable(),
  active: z.number().transform((value) => value === 1),
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  position: z.number(),
  sealed_secret: z.string(),
});

const toRecord = (row: unknown): WebhookRecord => {
  const r = rowSchema.parse(row);
  return {
    id: r.id,
    ownerId: r.owner_id,
    url: r.url,
    events: r.events,
    description: r.description,
    folderId: r.folder_id,
    active: r.active,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    position: r.position,
    sealedSecret: r.sealed_secret,
  };
};

const columns: Record<string, string> = {
  url: "url",
  description: "description",
  active: "active",
  disabledReason: "disabled_reason",
  updatedAt: "updated_at",
  events: "events",
};

export class SqliteWebhooksWriter implements WebhooksWriter<SqliteBatch> {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO webhooks (id, owner_id, url, events, description, folder_id, active, disabled_reason, created_at, updated_at, position, sealed_secret)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      remove: db.prepare<[string]>("DELETE FROM webhooks WHERE id = ?"),
      removeForOwner: db.prepare<[string]>("DELETE FROM webhooks WHERE owner_id = ?"),
    };
  }

  async put(_tx: SqliteBatch, w: WebhookRecord): Promise<void> {
    this.statements.put.run(
      w.id,
      w.ownerId,
      w.url,
      JSON.stringify(w.events),
      w.description,
      w.folderId,
      w.active ? 1 : 0,
      w.disabledReason,
      w.createdAt,
      w.updatedAt,
      w.position,
      w.sealedSecret,
    );
  }

  async update(
    _tx: SqliteBatch,
    id: string,
    changes: Parameters<WebhooksWriter<SqliteBatch>["update"]>[2],
  ): Promise<void> {
    const entries = Object.entries(changes).flatMap(([key, value]) => {
      const column = columns[key];
      if (!column || value === undefined) return [];
      const stored = key === "events" ? JSON.stringify(value) : typeof value === "boolean" ? (value ? 1 : 0) : value;
      return [[column, stored] as const];
    });
    if (entries.length === 0) return;
    this.db
      .prepare(`UPDATE webhooks SET ${entries.map(([column]) => `${column} = ?`).join(", ")} WHERE id = ?`)
      .run(...entries.map(([, value]) => value), id);
  }

  async remove(_tx: SqliteBatch, id: string): Promise<void> {
    this.statements.remove.run(id);
  }

  async removeForOwner(_tx: SqliteBatch, ownerId: string): Promise<void> {
    this.statements.removeForOwner.run(ownerId);
  }
}

export class SqliteWebhooksView implements WebhooksView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string]>("SELECT * FROM webhooks WHERE id = ?"),
      forOwner: db.prepare<[string, number, number]>(
        "SELECT * FROM webhooks WHERE owner_id = ? AND position < ? ORDER BY position DESC LIMIT CAST(? AS INTEGER)",
      ),
      active: db.prepare<[]>("SELECT * FROM webhooks WHERE active = 1"),
    };
  }

  async get(id: string): Promise<WebhookRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async listForOwner(ownerId: string, beforePosition: number | null, limit: number): Promise<WebhookRecord[]> {
    return this.statements.forOwner.all(ownerId, beforePosition ?? Number.MAX_SAFE_INTEGER, limit).map(toRecord);
  }

  async active(): Promise<WebhookRecord[]> {
    return this.statements.active.all().map(toRecord);
  }
}
