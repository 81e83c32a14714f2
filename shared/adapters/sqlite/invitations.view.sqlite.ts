import type Database from "better-sqlite3";
import { z } from "zod";
import { invitedAccessSchema, type InvitationStatus } from "../../sharing/invitation.decider.ts";

const deliveryStatusSchema = z.enum(["pending", "sent", "failed"]);
import type {
  InvitationRecord,
  InvitationsView,
  InvitationsWriter,
  InvitationTargetType,
} from "../../sharing/invitations.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS invitations (
  id TEXT PRIMARY KEY,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  email TEXT NOT NULL,
  permission TEXT NOT NULL,
  invited_by TEXT NOT NULL,
  status TEXT NOT NULL,
  delivery_status TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_pos INTEGER NOT NULL,
  last_resent_at TEXT
);
CREATE INDEX IF NOT EXISTS invitations_target ON invitations (target_type, target_id, email, created_pos);
CREATE INDEX IF NOT EXISTS invitations_pending_email ON invitations (email) WHERE status = 'pending';`;
export const invitationsModel: SqliteModel = { schema, tables: ["invitations"], queryIndexes: [] };

type Row = {
  id: string;
  target_type: string;
  target_id: string;
  email: string;
  permission: string;
  invited_by: string;
  status: string;
  delivery_status: string;
  expires_at: string;
  created_at: string;
  created_pos: number;
  last_resent_at: string | null;
};
const statusSchema = z.enum(["pending", "accepted", "expired", "cancelled"]) satisfies z.ZodType<InvitationStatus>;
const toRecord = (row: Row): InvitationRecord => ({
  id: row.id,
  email: row.email,
  access: invitedAccessSchema.parse({
    targetType: row.target_type,
    targetId: row.target_id,
    permission: row.permission,
  }),
  invitedBy: row.invited_by,
  status: statusSchema.parse(row.status),
  deliveryStatus: deliveryStatusSchema.parse(row.delivery_status),
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  createdPosition: row.created_pos,
  lastResentAt: row.last_resent_at,
});

export class SqliteInvitationsWriter implements InvitationsWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM invitations WHERE id = ?"),
      put: db.prepare(
        `INSERT OR REPLACE INTO invitations (id, target_type, target_id, email, permission, invited_by, status, delivery_status, expires_at, created_at, created_pos, last_resent_at)
         VALUES (@id, @targetType, @targetId, @email, @permission, @invitedBy, @status, @deliveryStatus, @expiresAt, @createdAt,
                 @createdPosition, @lastResentAt)`,
      ),
      removeTarget: db.prepare<[string, string]>("DELETE FROM invitations WHERE target_type = ? AND target_id = ?"),
      forgetAddress: db.prepare<[string]>("UPDATE invitations SET email = '' WHERE email = ?"),
    };
  }

  async get(_tx: SqliteBatch, id: string): Promise<InvitationRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async put(_tx: SqliteBatch, invitation: InvitationRecord): Promise<void> {
    const { access, ...rest } = invitation;
    this.statements.put.run({ ...rest, ...access });
  }

  async removeTarget(_tx: SqliteBatch, targetType: InvitationTargetType, targetId: string): Promise<void> {
    this.statements.removeTarget.run(targetType, targetId);
  }

  async forgetAddress(_tx: SqliteBatch, email: string): Promise<void> {
    this.statements.forgetAddress.run(email);
  }
}

export class SqliteInvitationsView implements InvitationsView {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      get: db.prepare<[string], Row>("SELECT * FROM invitations WHERE id = ?"),
      pendingFor: db.prepare<[string, string, string], Row>(
        `SELECT * FROM invitations WHERE target_type = ? AND target_id = ? AND status = 'pending' AND expires_at > ?
         ORDER BY created_pos`,
      ),
      latestFor: db.prepare<[string, string, string], Row>(
        "SELECT * FROM invitations WHERE target_type = ? AND target_id = ? AND email = ? ORDER BY created_pos DESC LIMIT 1",
      ),
      pendingForEmail: db.prepare<[string], Row>(
        "SELECT * FROM invitations WHERE email = ? AND status = 'pending' ORDER BY created_pos",
      ),
      // Scans the table (only pending invitations are indexed by address): an operator's erasure, rare.
      toAddress: db.prepare<[string], Row>("SELECT * FROM invitations WHERE email = ? ORDER BY created_pos"),
      undelivered: db.prepare<[], Row>(
        "SELECT * FROM invitations WHERE status = 'pending' AND delivery_status = 'pending' ORDER BY created_pos",
      ),
    };
  }

  async get(id: string): Promise<InvitationRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toRecord(row) : null;
  }

  async pendingFor(targetType: InvitationTargetType, targetId: string, now: string): Promise<InvitationRecord[]> {
    return this.statements.pendingFor.all(targetType, targetId, now).map(toRecord);
  }

  async latestFor(targetType: InvitationTargetType, targetId: string, email: string): Promise<InvitationRecord | null> {
    const row = this.statements.latestFor.get(targetType, targetId, email);
    return row ? toRecord(row) : null;
  }

  async pendingForEmail(email: string): Promise<InvitationRecord[]> {
    return this.statements.pendingForEmail.all(email).map(toRecord);
  }

  async toAddress(email: string): Promise<InvitationRecord[]> {
    return this.statements.toAddress.all(email).map(toRecord);
  }

  async undelivered(): Promise<InvitationRecord[]> {
    return this.statements.undelivered.all().map(toRecord);
  }
}
