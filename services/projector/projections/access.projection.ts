// AccessGranted, AccessRevoked and workspace membership events into the access read model, which is all an
// access check reads (contextFor: the caller's grants and roles, two indexed lookups).
import type { StoredEvent } from "../../../shared/events.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { EntityAccessEvent } from "../../../shared/sharing/entity-access.decider.ts";
import type { WorkspaceEvent } from "../../../shared/sharing/workspace.decider.ts";

export async function projectAccess({ event, metadata }: StoredEvent<EntityAccessEvent | WorkspaceEvent>, models: ReadModels): Promise<void> {
  switch (event.type) {
    case "AccessGranted": {
      const { entityType, entityId, userId, permission, grantedBy } = event.data;
      return models.access.putGrant({ entityType, entityId, userId, permission, grantedBy, createdAt: metadata.occurredAt, updatedAt: metadata.occurredAt });
    }
    case "AccessRevoked":
      return models.access.removeGrant(event.data.entityType, event.data.entityId, event.data.userId);
    case "WorkspaceMemberAdded": {
      const { membershipId, ownerId, memberId, role } = event.data;
      return models.access.putMember({ id: membershipId, ownerId, memberId, role, createdAt: metadata.occurredAt });
    }
    case "WorkspaceMemberRoleChanged": {
      const { ownerId, memberId, role } = event.data;
      const member = (await models.access.membershipsOf(memberId)).find((membership) => membership.ownerId === ownerId);
      if (member) await models.access.putMember({ ...member, role });
      return;
    }
    case "WorkspaceMemberRemoved":
      return models.access.removeMember(event.data.ownerId, event.data.memberId);
  }
}
