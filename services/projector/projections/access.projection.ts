// AccessGranted, AccessRevoked, their group forms and workspace membership events into the access read model, which is all an
// access check reads (contextFor: the caller's grants and roles, two indexed lookups).
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { EntityAccessEvent } from "../../../shared/sharing/entity-access.decider.ts";
import type { WorkspaceEvent } from "../../../shared/sharing/workspace.decider.ts";

export async function projectAccess<Tx>(
  { event, metadata, position }: StoredEvent<EntityAccessEvent | WorkspaceEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "AccessGranted": {
      const { entityType, entityId, userId, permission, grantedBy } = event.data;
      return writers.access.putGrant(
        tx,
        {
          entityType,
          entityId,
          userId,
          permission,
          grantedBy,
          createdAt: metadata.occurredAt,
          updatedAt: metadata.occurredAt,
        },
        position,
      );
    }
    case "AccessRevoked":
      return writers.access.removeGrant(tx, event.data.entityType, event.data.entityId, event.data.userId, position);
    case "WorkspaceMemberAdded": {
      const { membershipId, ownerId, memberId, role } = event.data;
      return writers.access.putMember(
        tx,
        { id: membershipId, ownerId, memberId, role, createdAt: metadata.occurredAt },
        position,
      );
    }
    case "WorkspaceMemberRoleChanged": {
      const { ownerId, memberId, role } = event.data;
      return writers.access.changeRole(tx, ownerId, memberId, role, position);
    }
    case "WorkspaceMemberRemoved":
      return writers.access.removeMember(tx, event.data.ownerId, event.data.memberId, position);
    case "GroupAccessGranted": {
      const { entityType, entityId, groupId, permission, grantedBy } = event.data;
      return writers.access.putGroupGrant(
        tx,
        {
          entityType,
          entityId,
          groupId,
          permission,
          grantedBy,
          createdAt: metadata.occurredAt,
          updatedAt: metadata.occurredAt,
        },
        position,
      );
    }
    case "GroupAccessRevoked":
      return writers.access.removeGroupGrant(
        tx,
        event.data.entityType,
        event.data.entityId,
        event.data.groupId,
        position,
      );
  }
}
