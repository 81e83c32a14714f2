// What a caller's permissions are computed from: their workspace roles and their direct grants, loaded once
// per request (AccessView.contextFor) and read by effectivePermission and seenBy.
import type { GrantablePermission, WorkspaceRole } from "../kernel/permissions.ts";

export interface AccessContext {
  readonly userId: string;
  /** workspace owner id → the caller's role there */
  readonly workspaceRoles: ReadonlyMap<string, WorkspaceRole>;
  /** folder id → permission granted to the caller directly on that folder */
  readonly folderGrants: ReadonlyMap<string, GrantablePermission>;
  /** page id → permission granted to the caller directly on that page */
  readonly pageGrants: ReadonlyMap<string, GrantablePermission>;
}

/** A user's context from their direct grants and their workspace memberships, as a store reads them. */
export function accessContextOf(
  userId: string,
  grants: Iterable<{ readonly entityType: string; readonly entityId: string; readonly permission: GrantablePermission }>,
  roles: Iterable<{ readonly ownerId: string; readonly role: WorkspaceRole }>,
): AccessContext {
  const folderGrants = new Map<string, GrantablePermission>();
  const pageGrants = new Map<string, GrantablePermission>();
  for (const grant of grants) (grant.entityType === "folder" ? folderGrants : pageGrants).set(grant.entityId, grant.permission);
  return { userId, workspaceRoles: new Map([...roles].map((member) => [member.ownerId, member.role])), folderGrants, pageGrants };
}
