// Permissions on pages and folders, lowest to highest, and how workspace roles map onto them (docs/guide/sharing.md).
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
  for (const permission of permissions) best = higher(best, permission);
  return best;
}

/** The higher of two permissions, either possibly absent. */
export function higher(a: Permission | null, b: Permission | null | undefined): Permission | null {
  return b && (a === null || rank[b] > rank[a]) ? b : a;
}

const grantable = new Set<string>(grantablePermissionSchema.options);
const roles = new Set<string>(workspaceRoleSchema.options);

/** Reads a permission back from storage: cheaper than a zod parse on hot paths, just as strict. */
export function storedPermission(value: string): GrantablePermission {
  if (!grantable.has(value)) throw new Error(`stored permission ${value} is not a known permission`);
  return value as GrantablePermission;
}

export function storedRole(value: string): WorkspaceRole {
  if (!roles.has(value)) throw new Error(`stored role ${value} is not a known role`);
  return value as WorkspaceRole;
}
