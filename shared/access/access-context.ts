// What a caller's permissions are computed from: their workspace roles and grants, their own and their groups'
// (each map holds the highest of them), loaded once per request (AccessView.contextFor) and read by
// effectivePermission, seenBy and every list's visibility filter, so a group's grant counts wherever a grant does.
import type { GrantablePermission, WorkspaceRole } from "../kernel/permissions.ts";

export interface AccessContext {
  readonly userId: string;
  /** workspace owner id → the caller's role there (their own or a group's, the highest) */
  readonly workspaceRoles: ReadonlyMap<string, WorkspaceRole>;
  /** folder id → permission granted on that folder to the caller or a group of theirs (the highest) */
  readonly folderGrants: ReadonlyMap<string, GrantablePermission>;
  /** page id → permission granted on that page to the caller or a group of theirs (the highest) */
  readonly pageGrants: ReadonlyMap<string, GrantablePermission>;
  /** The groups the caller is a member of: they may see these groups' names and members. */
  readonly groupIds: ReadonlySet<string>;
}
