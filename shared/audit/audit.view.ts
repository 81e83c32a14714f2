// Read model of the audit trail: one row per entry, filed under one workspace (its owner's id), derived from the
// log by the projector (audit-of.ts says which events make entries) and read newest first. Rows hold ids only.
import type { AuditKind, AuditTargetType } from "./audit-entry.ts";

export interface AuditRecord {
  /** The event's id: one entry per event. */
  readonly id: string;
  readonly workspaceId: string;
  readonly kind: AuditKind;
  readonly actorId: string;
  /** The API token the change was made through, if any. */
  readonly tokenId: string | null;
  /** The app (OAuth authorization) the change was made through, if any. */
  readonly appId: string | null;
  /** When it happened (the event's occurredAt). */
  readonly at: string;
  readonly targetType: AuditTargetType;
  readonly targetId: string;
  /** The kind's detail (audit-entry.ts), as recorded. */
  readonly detail: unknown;
  readonly position: number;
}

/** Where a page of the trail resumes: strictly older than this entry. */
export interface AuditKey {
  readonly at: string;
  readonly position: number;
}

export interface AuditQuery {
  readonly workspaceId: string;
  readonly actorId: string | null;
  readonly kind: AuditKind | null;
  /** Entries strictly after this instant (ISO, UTC). */
  readonly after: string | null;
  /** Entries strictly before this instant (ISO, UTC). */
  readonly before: string | null;
  readonly from: AuditKey | null;
  readonly limit: number;
}

export interface AuditView {
  /** The workspace's entries newest first (by `at`, then position), at most `limit`. */
  list(query: AuditQuery): Promise<AuditRecord[]>;
}

export interface AuditWriter<Tx> {
  /** Writes the entry; writing it again (a replayed batch) leaves one row. */
  put(tx: Tx, record: AuditRecord): Promise<void>;
  /** The workspace of the target's first entry, as the batch sees it; null when it has none. */
  workspaceOf(tx: Tx, targetType: AuditTargetType, targetId: string): Promise<string | null>;
  /** Deletes every entry about the target: a purged page or folder leaves the trail as it leaves every read model. */
  forget(tx: Tx, targetType: AuditTargetType, targetId: string): Promise<void>;
}
