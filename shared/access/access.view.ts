// Read model of who was given access: grants on pages and folders (to people and to groups), workspace
// memberships, group memberships and groups' workspace roles.
import type { GrantablePermission, WorkspaceRole } from "../kernel/permissions.ts";
import type { ListKey } from "../read-store/list-query.ts";
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

export interface GroupGrantRecord {
  readonly entityType: EntityType;
  readonly entityId: string;
  readonly groupId: string;
  readonly permission: GrantablePermission;
  readonly grantedBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface GroupMemberRecord {
  readonly groupId: string;
  readonly ownerId: string;
  readonly memberId: string;
  /** Where the member was added in the log: members are listed in the order they joined. */
  readonly position: number;
  readonly createdAt: string;
}

export interface AccessView {
  /** Everything needed to compute the caller's permission on any page or folder: two small lookups. */
  contextFor(userId: string): Promise<AccessContext>;
  grantsOn(entityType: EntityType, entityId: string): Promise<GrantRecord[]>;
  membersOf(ownerId: string): Promise<MemberRecord[]>;
  membershipsOf(memberId: string): Promise<MemberRecord[]>;
  groupGrantsOn(entityType: EntityType, entityId: string): Promise<GroupGrantRecord[]>;
  /** One page of a group's members, oldest first, after `after`: an index walk from the cursor (what a fan-out reads too). */
  groupMembers(groupId: string, after: ListKey | null, limit: number): Promise<GroupMemberRecord[]>;
  isGroupMember(groupId: string, userId: string): Promise<boolean>;
}

/**
 * What the projector writes. Every change names the global position it comes from, recorded against the one
 * user whose access it changes: a query node keeps that user's access context until their position moves,
 * so a grant invalidates one user's cache, not everyone's.
 */
export interface AccessWriter<Tx> {
  /** The user's access context as the batch sees it (never cached): whom a notification may reach. */
  contextFor(tx: Tx, userId: string): Promise<AccessContext>;
  /** One page of a group's members as the batch sees them: as AccessView.groupMembers, for the fan-out. */
  groupMembers(tx: Tx, groupId: string, after: ListKey | null, limit: number): Promise<GroupMemberRecord[]>;
  putGrant(tx: Tx, grant: GrantRecord, position: number): Promise<void>;
  removeGrant(tx: Tx, entityType: EntityType, entityId: string, userId: string, position: number): Promise<void>;
  putMember(tx: Tx, member: MemberRecord, position: number): Promise<void>;
  changeRole(tx: Tx, ownerId: string, memberId: string, role: WorkspaceRole, position: number): Promise<void>;
  removeMember(tx: Tx, ownerId: string, memberId: string, position: number): Promise<void>;
  /** The entity was purged: every grant on it goes (groups' too), each grantee's access changing at `position`. */
  removeEntity(tx: Tx, entityType: EntityType, entityId: string, position: number): Promise<void>;
  /** A change to what a group holds is recorded against each of its members, as a change to their own access. */
  putGroupGrant(tx: Tx, grant: GroupGrantRecord, position: number): Promise<void>;
  removeGroupGrant(tx: Tx, entityType: EntityType, entityId: string, groupId: string, position: number): Promise<void>;
  putGroupMember(tx: Tx, member: GroupMemberRecord, position: number): Promise<void>;
  removeGroupMember(tx: Tx, groupId: string, memberId: string, position: number): Promise<void>;
  setGroupRole(tx: Tx, groupId: string, ownerId: string, role: WorkspaceRole | null, position: number): Promise<void>;
  /** The group was deleted: its members, grants and role go, each member's access changing at `position`. */
  removeGroup(tx: Tx, groupId: string, position: number): Promise<void>;
}
