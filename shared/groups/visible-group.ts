// Who sees a group: its workspace's owner and admins (who manage it) and its members. Anyone else is told it does
// not exist (404), after the same two lookups a missing group costs: the record and the caller's cached context.
import type { AccessContext } from "../access/access-context.ts";
import { AppError } from "../errors/app-error.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { GroupRecord } from "./groups.view.ts";

/** Whether the caller manages the workspace `ownerId`: its owner, or an admin of it. */
export const managesWorkspace = (context: AccessContext, ownerId: string): boolean =>
  ownerId === context.userId || context.workspaceRoles.get(ownerId) === "admin";

export const seesGroup = (context: AccessContext, group: Pick<GroupRecord, "id" | "ownerId">): boolean =>
  managesWorkspace(context, group.ownerId) || context.groupIds.has(group.id);

export async function visibleGroup(
  models: Pick<ReadModels, "groups" | "access">,
  userId: string,
  groupId: string,
): Promise<{ group: GroupRecord; context: AccessContext; manages: boolean }> {
  const group = await models.groups.get(groupId);
  const context = await models.access.contextFor(userId);
  if (!group || !seesGroup(context, group)) throw new AppError("not_found", "group not found");
  return { group, context, manages: managesWorkspace(context, group.ownerId) };
}

/** The workspaces whose groups the caller manages: their own and those where they are an admin. */
export const managedWorkspaces = (context: AccessContext): string[] => [
  context.userId,
  ...[...context.workspaceRoles].flatMap(([ownerId, role]) => (role === "admin" ? [ownerId] : [])),
];
