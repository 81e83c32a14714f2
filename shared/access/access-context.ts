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
