// Effective permission (docs/guide/sharing.md): the highest of ownership, a direct grant, an ancestor folder's grant
// and the caller's role in the owner's workspace. Pure: the caller's AccessContext is loaded once per request.
import { higher, roleToPermission, type Permission } from "../kernel/permissions.ts";
import type { AccessContext } from "./access-context.ts";
import { seenBy, type Placed, type Seen } from "./seen-by.ts";

export interface AccessTarget {
  readonly kind: "page" | "folder";
  readonly id: string;
  readonly ownerId: string;
  /** Every folder above the target, nearest first. */
  readonly ancestorIds: readonly string[];
}

export function effectivePermission(context: AccessContext, target: AccessTarget): Permission | null {
  if (target.ownerId === context.userId) return "owner";
  const role = context.workspaceRoles.get(target.ownerId);
  // Folded without building an array: a list computes this for every item it shows.
  let best = higher(
    role ? roleToPermission[role] : null,
    target.kind === "page" ? context.pageGrants.get(target.id) : context.folderGrants.get(target.id),
  );
  for (const id of target.ancestorIds) best = higher(best, context.folderGrants.get(id));
  return best;
}

/** What a list query needs to filter rows to those the caller can view. */
export function visibilityFilter(context: AccessContext): {
  ownerIds: string[];
  pageIds: string[];
  folderIds: string[];
} {
  return {
    ownerIds: [context.userId, ...context.workspaceRoles.keys()],
    pageIds: [...context.pageGrants.keys()],
    folderIds: [...context.folderGrants.keys()],
  };
}

/** The items the caller can view, each as they may see it, with its effective permission; the others are left out. */
export function presentVisible<T extends Omit<AccessTarget, "kind"> & Placed, R>(
  context: AccessContext,
  kind: AccessTarget["kind"],
  items: readonly T[],
  present: (item: Seen<T>, permission: Permission) => R,
): R[] {
  return items.flatMap((item) => {
    const { id, ownerId, ancestorIds } = item;
    const permission = effectivePermission(context, { kind, id, ownerId, ancestorIds });
    return permission ? [present(seenBy(context, item), permission)] : [];
  });
}
