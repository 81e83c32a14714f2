// Group events into the groups read model (name, member count) and the access read model (who belongs, the
// group's workspace role), in the same batch: a member removed or a group deleted loses access at once.
import type { StoredEvent } from "../../../shared/events.ts";
import type { GroupEvent } from "../../../shared/groups/group.decider.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectGroup<Tx>(
  { event, metadata, position }: StoredEvent<GroupEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const at = metadata.occurredAt;
  switch (event.type) {
    case "GroupCreated": {
      const { groupId, ownerId, name } = event.data;
      return writers.groups.put(tx, {
        id: groupId,
        ownerId,
        name,
        memberCount: 0,
        createdAt: at,
        updatedAt: at,
        position,
      });
    }
    case "GroupRenamed":
      return writers.groups.rename(tx, event.data.groupId, event.data.name, at);
    case "GroupDeleted":
      await writers.access.removeGroup(tx, event.data.groupId, position);
      return writers.groups.remove(tx, event.data.groupId);
    case "GroupMemberAdded": {
      const { groupId, ownerId, memberId } = event.data;
      await writers.access.putGroupMember(tx, { groupId, ownerId, memberId, position, createdAt: at }, position);
      return writers.groups.countMembers(tx, groupId, 1, at);
    }
    case "GroupMemberRemoved":
      await writers.access.removeGroupMember(tx, event.data.groupId, event.data.memberId, position);
      return writers.groups.countMembers(tx, event.data.groupId, -1, at);
    case "GroupRoleChanged":
      return writers.access.setGroupRole(tx, event.data.groupId, event.data.ownerId, event.data.role, position);
  }
}
