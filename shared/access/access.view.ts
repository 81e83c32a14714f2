// Read model of who was given access: grants on pages and folders, and workspace memberships.
import type { GrantablePermission, WorkspaceRole } from "../kernel/permissions.ts";
import type { AccessContext } from "./access-context.ts";

export type EntityType = "page" | "folder";

export interface GrantRecord {
  readonly entityType: EntityType;
  readonly entityId: string;
  readonly userId: string;
  readonly permission: GrantablePermission;
  readonly grantedBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface MemberRecord {
  /** The membership's own id, fixed when the member was added. */
  readonly id: string;
  readonly ownerId: string;
  readonly memberId: string;
  readonly role: WorkspaceRole;
  readonly createdAt: string;
}

export interface AccessView {
  /** Everything needed to compute the caller's permission on any page or folder: two small lookups. */
  contextFor(userId: string): Promise<AccessContext>;
  grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]>;
  membersOf(ownerId: string): Promise<MemberRecord[]>;
  membershipsOf(memberId: string): Promise<MemberRecord[]>;
}

/**
 * What the projector writes. Every change names the global position it comes from, recorded against the one
 * user whose access it changes: a query node keeps that user's access context until their position moves,
 * so a grant invalidates one user's cache, not everyone's.
 */
export interface AccessWriter<Tx> {
  putGrant(tx: Tx, grant: GrantRecord, position: number): Promise<void>;
  removeGrant(tx: Tx, entityType: EntityType, entityId: string, userId: string, position: number): Promise<void>;
  putMember(tx: Tx, member: MemberRecord, position: number): Promise<void>;
  changeRole(tx: Tx, ownerId: string, memberId: string, role: WorkspaceRole, position: number): Promise<void>;
  removeMember(tx: Tx, ownerId: string, memberId: string, position: number): Promise<void>;
  /** The entity was purged: every grant on it goes, each grantee's access changing at `position`. */
  removeEntity(tx: Tx, entityType: EntityType, entityId: string, position: number): Promise<void>;
}
