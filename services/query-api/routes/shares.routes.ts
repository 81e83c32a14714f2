// Sharing settings: GET /shares/workspace (the caller's members, memberships and pending invitations) and
// GET /shares/entity/{entityType}/{entityId} (grants, groups' grants and pending invitations; for those who may
// share it).
import { z } from "zod";
import { requirePermission } from "../../../shared/access/authorize.ts";
import type { App } from "../../../shared/http/create-app.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { entitySharesResource, toEntityShares } from "../../../shared/sharing/entity-shares.resource.ts";
import { entityTypeSchema } from "../../../shared/sharing/entity-access.decider.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import { seesGroup } from "../../../shared/groups/visible-group.ts";
import { toWorkspaceShares, workspaceSharesResource } from "../../../shared/sharing/workspace.resource.ts";

export function shareQueryRoutes(app: App, views: ReadModels, clock: () => Date): void {
  app.get(
    "/shares/workspace",
    {
      config: { access: { scope: "pages:read" } },
      schema: { response: { 200: workspaceSharesResource, "4xx": errorBody } },
    },
    async (request) => {
      const { user } = principalOf(request);
      const members = await views.access.membersOf(user.id);
      const memberships = await views.access.membershipsOf(user.id);
      const invitations = await views.invitations.pendingFor("workspace", user.id, clock().toISOString());
      const users = await views.users.getMany([
        ...members.map((member) => member.memberId),
        ...memberships.map((membership) => membership.ownerId),
      ]);
      return toWorkspaceShares(user, members, memberships, invitations, users);
    },
  );

  app.get(
    "/shares/entity/:entityType/:entityId",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ entityType: entityTypeSchema, entityId: z.uuid() }),
        response: { 200: entitySharesResource, "4xx": errorBody },
      },
    },
    async (request) => {
      const { entityType, entityId } = request.params;
      const { entity, permission } = await visibleEntity(views, principalOf(request), entityType, entityId);
      requirePermission(permission, "admin", entityType);
      const grants = await views.access.grantsOn(entityType, entityId);
      const invitations = await views.invitations.pendingFor(entityType, entityId, clock().toISOString());
      const users = await views.users.getMany(grants.map((grant) => grant.userId));
      const context = await views.access.contextFor(principalOf(request).user.id);
      const groupGrants = await Promise.all(
        (await views.access.groupGrantsOn(entityType, entityId)).map(async (grant) => {
          const group = await views.groups.get(grant.groupId);
          return { grant, name: group && seesGroup(context, group) ? group.name : null };
        }),
      );
      return toEntityShares(entity, permission, grants, invitations, users, groupGrants);
    },
  );
}
