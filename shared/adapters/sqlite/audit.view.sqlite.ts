// The audit trail in SQLite: one row per entry, read newest first through an index per filter (none, actor, kind,
// both), each ordered by (at, position), so a page costs what it returns however long the trail is; a target's
// first entry is found through (target_type, target_id, position). Of an instant's upper bound and a cursor, only
// the tighter is written, so the index's range has one upper end.
import type Database from "better-sqlite3";
import { auditKindSchema, auditTargetTypeSchema, type AuditTargetType } from "../../audit/audit-entry.ts";
import type { AuditQuery, AuditRecord, AuditView, AuditWriter } from "../../audit/audit.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS audit (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  token_id TEXT,
  app_id TEXT,
  at TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  detail TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_target ON audit (target_type, target_id, position);
CREATE INDEX IF NOT EXISTS audit_newest ON audit (workspace_id, at, position);
CREATE INDEX IF NOT EXISTS audit_actor ON audit (workspace_id, actor_id, at, position);
CREATE INDEX IF NOT EXISTS audit_kind ON audit (workspace_id, kind, at, position);
CREATE INDEX IF NOT EXISTS audit_actor_kind ON audit (workspace_id, actor_id, kind, at, position);`;
// The list indexes are named in each query (INDEXED BY): without statistics the planner takes a range on the
// instant over the filters' equalities. So they are kept through a rebuild too.
export const auditModel: SqliteModel = { schema, tables: ["audit"], queryIndexes: [] };

type Row = {
  id: string;
  workspace_id: string;
  kind: string;
  actor_id: string;
  token_id: string | null;
  app_id: string | null;
  at: string;
  target_type: string;
  target_id: string;
  detail: string;
  position: number;
};

const toRecord = (row: Row): AuditRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: auditKindSchema.parse(row.kind),
  actorId: row.actor_id,
  tokenId: row.token_id,
  appId: row.app_id,
  at: row.at,
  targetType: auditTargetTypeSchema.parse(row.target_type),
  targetId: row.target_id,
  detail: JSON.parse(row.detail),
  position: row.position,
});

export class SqliteAuditWriter implements AuditWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      put: db.prepare(
        `INSERT OR REPLACE INTO audit (id, workspace_id, kind, actor_id, token_id, app_id, at, target_type, target_id, detail, position)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      workspaceOf: db
        .prepare<[string, string], string>(
          "SELECT workspace_id FROM audit WHERE target_type = ? AND target_id = ? ORDER BY position LIMIT 1",
        )
        .pluck(),
      forget: db.prepare<[string, string]>("DELETE FROM audit WHERE target_type = ? AND target_id = ?"),
    };
  }

  async put(_tx: SqliteBatch, r: AuditRecord): Promise<void> {
    this.statements.put.run(
      r.id,
      r.workspaceId,
      r.kind,
      r.actorId,
      r.tokenId,
      r.appId,
      r.at,
      r.targetType,
      r.targetId,
      JSON.stringify(r.detail),
      r.position,
    );
  }

  async workspaceOf(_tx: SqliteBatch, targetType: AuditTargetType, targetId: string): Promise<string | null> {
    return this.statements.workspaceOf.get(targetType, targetId) ?? null;
  }

  async forget(_tx: SqliteBatch, targetType: AuditTargetType, targetId: string): Promise<void> {
    this.statements.forget.run(targetType, targetId);
  }
}

export class SqliteAuditView implements AuditView {
  /** One statement per combination of filters, prepared on first use (at most 32). */
  private readonly statements = new Map<string, Database.Statement<Record<string, string | number>, Row>>();

  constructor(private readonly db: Database.Database) {}

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    const conditions = ["workspace_id = @workspaceId"];
    const values: Record<string, string | number> = { workspaceId: query.workspaceId, limit: query.limit };
    if (query.actorId !== null) {
      conditions.push("actor_id = @actorId");
      values.actorId = query.actorId;
    }
    if (query.kind !== null) {
      conditions.push("kind = @kind");
      values.kind = query.kind;
    }
    if (query.after !== null) {
      conditions.push("at > @after");
      values.after = query.after;
    }
    const { before, from } = query;
    if (from !== null && (before === null || before > from.at)) {
      conditions.push("(at, position) < (@fromAt, @fromPosition)");
      values.fromAt = from.at;
      values.fromPosition = from.position;
    } else if (before !== null) {
      conditions.push("at < @before");
      values.before = before;
    }
    const index =
      query.actorId !== null
        ? query.kind !== null
          ? "audit_actor_kind"
          : "audit_actor"
        : query.kind !== null
          ? "audit_kind"
          : "audit_newest";
    const sql = `SELECT * FROM audit INDEXED BY ${index} WHERE ${conditions.join(" AND ")} ORDER BY at DESC, position DESC LIMIT CAST(@limit AS INTEGER)`;
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<Record<string, string | number>, Row>(sql);
      this.statements.set(sql, statement);
    }
    return statement.all(values).map(toRecord);
  }
}
