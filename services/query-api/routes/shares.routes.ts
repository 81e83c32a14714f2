// Sharing settings: GET /shares/workspace (the caller's members, memberships and pending invitations) and
// GET /shares/entity/{entityType}/{entityId} (grants and pending invitations; for those who may share it).
import { z } from "zod";
import { requirePermission } from "../../../shared/access/authorize.ts";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { entitySharesResource, toEntityShares } from "../../../shared/sharing/entity-shares.resource.ts";
import { entityTypeSchema } from "../../../shared/sharing/entity-access.decider.ts";
import { visibleEntity } from "../../../shared/sharing/shared-entity.ts";
import { toWorkspaceShares, workspaceSharesResource } from "../../../shared/sharing/workspace.resource.ts";

export function shareQueryRoutes(app: App, deps: Dependencies): void {
  app.get(
    "/shares/workspace",
    { onRequest: guard(deps, { scope: "pages:read" }), schema: { response: { 200: workspaceSharesResource, "4xx": errorBody } } },
    async (request) => {
      const { user } = principalOf(request);
      const models = deps.readStore;
      const members = await models.access.membersOf(user.id);
      const memberships = await models.access.membershipsOf(user.id);
      const invitations = await models.invitations.pendingFor("workspace", user.id, deps.clock().toISOString());
      const users = await models.users.getMany([...members.map((member) => member.memberId), ...memberships.map((membership) => membership.ownerId)]);
      return toWorkspaceShares(user, members, memberships, invitations, users);
    },
  );

  app.get(
    "/shares/entity/:entityType/:entityId",
    {
      onRequest: guard(deps, { scope: "pages:read" }),
      schema: { params: z.object({ entityType: entityTypeSchema, entityId: z.uuid() }), response: { 200: entitySharesResource, "4xx": errorBody } },
    },
    async (request) => {
      const { entityType, entityId } = request.params;
      const models = deps.readStore;
      const { entity, permission } = await visibleEntity(models, principalOf(request), entityType, entityId);
      requirePermission(permission, "admin", entityType);
      const grants = await models.access.grantsOn(entityType, entityId);
      const invitations = await models.invitations.pendingFor(entityType, entityId, deps.clock().toISOString());
      const users = await models.users.getMany(grants.map((grant) => grant.userId));
      return toEntityShares(entity, permission, grants, invitations, users);
    },
  );
}
