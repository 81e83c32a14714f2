// Sharing a page or folder with a group: the sharer must see the group (its workspace's owner or admin, or a
// member); a group they cannot see is as missing as one that does not exist. The grant never names members.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { GroupId } from "../kernel/ids.ts";
import type { GrantablePermission, Permission } from "../kernel/permissions.ts";
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
  const { position } = await entityAccessCommands.handle(ports.eventStore, entity, { type: "GrantGroupAccess", entity, groupId, permission, actor }, context);
  return { position };
}
