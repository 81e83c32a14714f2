// Sharing with a group: a page or folder, whose sharer must see the group (its workspace's owner or admin, or a
// member), or a role in the workspace, which only its owner gives. A group the caller cannot see is as missing as
// one that does not exist. A grant never names the group's members.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { GroupId } from "../kernel/ids.ts";
import type { GrantablePermission, Permission, WorkspaceRole } from "../kernel/permissions.ts";
import { groupCommands } from "./group.commands.ts";
import type { SharedEntity } from "../sharing/shared-entity.ts";
import { entityAccessCommands } from "../sharing/sharing.commands.ts";
import { visibleGroup } from "./visible-group.ts";

export async function shareWithGroup(
  ports: WritePorts,
  context: CommandContext,
  request: { entity: SharedEntity; actorPermission: Permission; groupId: GroupId; permission: GrantablePermission },
): Promise<{ position: number | null }> {
  const { entity, groupId, permission } = request;
  await visibleGroup(ports.views, context.actorId, groupId);
  const actor = { id: context.actorId, permission: request.actorPermission };
  const { position } = await entityAccessCommands.handle(
    ports.eventStore,
    entity,
    { type: "GrantGroupAccess", entity, groupId, permission, actor },
    context,
  );
  return { position };
}

/** Gives the group `role` in its workspace (null takes it away); only the workspace owner may (the decider says so). */
export async function changeGroupRole(
  ports: WritePorts,
  context: CommandContext,
  groupId: GroupId,
  role: WorkspaceRole | null,
): Promise<{ position: number | null }> {
  const { manages } = await visibleGroup(ports.views, context.actorId, groupId);
  const { position } = await groupCommands.handle(
    ports.eventStore,
    groupId,
    { type: "ChangeGroupRole", groupId, role, actor: { id: context.actorId, manages } },
    context,
  );
  return { position };
}
