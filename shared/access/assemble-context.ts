// One caller's AccessContext from the rows that give them access: their own grants and roles, and those of the
// groups they belong to. Both read-store adapters build contexts here, so a group's grant or role counts exactly
// as a person's does, and the highest of them wins. Pure.
import { highest, type GrantablePermission, type WorkspaceRole } from "../kernel/permissions.ts";
import type { AccessContext } from "./access-context.ts";
import type { EntityType } from "./access.view.ts";

export interface AccessRows {
  /** The caller's own grants and their groups' grants alike. */
  readonly grants: Iterable<{
    readonly entityType: EntityType;
    readonly entityId: string;
    readonly permission: GrantablePermission;
  }>;
  /** The caller's own workspace roles and their groups' roles alike. */
  readonly roles: Iterable<{ readonly ownerId: string; readonly role: WorkspaceRole }>;
  readonly groupIds: Iterable<string>;
}

const roleRank: Record<WorkspaceRole, number> = { viewer: 1, commenter: 2, editor: 3, admin: 4 };

function keepHighest(map: Map<string, GrantablePermission>, id: string, permission: GrantablePermission): void {
  const held = map.get(id);
  const best = held === undefined ? permission : highest([held, permission]);
  // highest of two grantable permissions is one of them, never "owner".
  if (best !== null && best !== "owner") map.set(id, best);
}

export function assembleContext(userId: string, rows: AccessRows): AccessContext {
  const folderGrants = new Map<string, GrantablePermission>();
  const pageGrants = new Map<string, GrantablePermission>();
  for (const grant of rows.grants)
    keepHighest(grant.entityType === "folder" ? folderGrants : pageGrants, grant.entityId, grant.permission);
  const workspaceRoles = new Map<string, WorkspaceRole>();
  for (const { ownerId, role } of rows.roles) {
    const held = workspaceRoles.get(ownerId);
    if (held === undefined || roleRank[role] > roleRank[held]) workspaceRoles.set(ownerId, role);
  }
  return { userId, workspaceRoles, folderGrants, pageGrants, groupIds: new Set(rows.groupIds) };
}
