// Read model of who was given access: grants on pages and folders, and workspace memberships.
import type { GrantablePermission, WorkspaceRole } from "../kernel/permissions.ts";
import type { AccessContext } from "./effective-permission.ts";

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
  putGrant(grant: GrantRecord): Promise<void>;
  removeGrant(entityType: EntityType, entityId: string, userId: string): Promise<void>;
  grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]>;
  putMember(member: MemberRecord): Promise<void>;
  removeMember(ownerId: string, memberId: string): Promise<void>;
  membersOf(ownerId: string): Promise<MemberRecord[]>;
  membershipsOf(memberId: string): Promise<MemberRecord[]>;
}
