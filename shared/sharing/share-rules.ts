// Who may share what (docs/guide/sharing.md): sharing needs admin; only the owner grants admin, and
// only the owner changes or takes away what an admin holds. Pure: the caller's permission is passed in.
import { AppError } from "../errors/app-error.ts";
import type { UserId } from "../kernel/ids.ts";
import { atLeast, type GrantablePermission, type Permission } from "../kernel/permissions.ts";

/** Who is acting, with their effective permission on the entity concerned. */
export interface Actor {
  readonly id: UserId;
  readonly permission: Permission;
}

/** Why `actor` may not move someone's access from `current` to `next` (null: none), or null when they may. */
function shareRefusal(
  actor: Permission | null,
  current: GrantablePermission | null,
  next: GrantablePermission | null,
): string | null {
  if (!atLeast(actor, "admin")) return "you may not share this";
  if (actor === "owner") return null;
  if (next === "admin") return "only the owner grants admin access to this";
  if (current === "admin") return "only the owner changes or removes admin access to this";
  return null;
}

/** Throws forbidden unless the share is allowed; `what` names the entity in the message. */
export function assertMayShare(
  actor: Permission,
  current: GrantablePermission | null,
  next: GrantablePermission | null,
  what: string,
): void {
  const refusal = shareRefusal(actor, current, next);
  if (refusal) throw new AppError("forbidden", `${refusal} ${what}`);
}

/** Whether `actor` may resend or cancel an invitation to `invited` on an entity: whoever may share that access. */
export function mayManageEntityInvitation(actor: Permission | null, invited: GrantablePermission): boolean {
  return shareRefusal(actor, invited, invited) === null;
}
