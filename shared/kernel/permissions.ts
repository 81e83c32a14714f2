// Permissions on pages and folders, lowest to highest, and how workspace roles map onto them (DESIGN.md §5).
import { z } from "zod";

export const grantablePermissionSchema = z.enum(["view", "comment", "edit", "admin"]);
export type GrantablePermission = z.infer<typeof grantablePermissionSchema>;
export type Permission = GrantablePermission | "owner";

export const workspaceRoleSchema = z.enum(["viewer", "commenter", "editor", "admin"]);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

const rank: Record<Permission, number> = { view: 1, comment: 2, edit: 3, admin: 4, owner: 5 };

export const roleToPermission: Record<WorkspaceRole, GrantablePermission> = {
  viewer: "view",
  commenter: "comment",
  editor: "edit",
  admin: "admin",
};

export function atLeast(held: Permission | null, needed: Permission): boolean {
  return held !== null && rank[held] >= rank[needed];
}

export function highest(permissions: ReadonlyArray<Permission | null | undefined>): Permission | null {
  let best: Permission | null = null;
  for (const permission of permissions) {
    if (permission && (best === null || rank[permission] > rank[best])) best = permission;
  }
  return best;
}
