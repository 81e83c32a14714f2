// GET /groups (the groups of the workspaces the caller manages and the groups they belong to, newest first),
// GET /groups/{id} and GET /groups/{id}/members. A group the caller may not see answers 404, as a missing one.
import { z } from "zod";
import {
  groupMemberResource,
  groupResource,
  toGroupMemberResource,
  toGroupResource,
} from "../../../shared/groups/group.resource.ts";
import { managedWorkspaces, visibleGroup } from "../../../shared/groups/visible-group.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { groupIdSchema } from "../../../shared/kernel/ids.ts";
import { decodeListCursor, pageOf } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export function groupQueryRoutes(app: App, views: ReadModels): void {
  const config = { access: { scope: "pages:read" as const } };

  app.get(
    "/groups",
    { config, schema: { querystring: paginationQuery, response: { 200: listOf(groupResource), "4xx": errorBody } } },
    async (request) => {
      const context = await views.access.contextFor(principalOf(request).user.id);
      const { cursor, limit } = request.query;
      const rows = await views.groups.list({
        ownerIds: managedWorkspaces(context),
        groupIds: [...context.groupIds],
        before: decodeListCursor(cursor),
        limit: limit + 1,
      });
      const { rows: kept, nextCursor } = pageOf(rows, limit, (group) => ({ position: group.position, id: group.id }));
      return { data: kept.map(toGroupResource), nextCursor };
    },
  );

  app.get(
    "/groups/:groupId",
    {
      config,
      schema: { params: z.object({ groupId: groupIdSchema }), response: { 200: groupResource, "4xx": errorBody } },
    },
    async (request) =>
      toGroupResource((await visibleGroup(views, principalOf(request).user.id, request.params.groupId)).group),
  );

  app.get(
    "/groups/:groupId/members",
    {
      config,
      schema: {
        params: z.object({ groupId: groupIdSchema }),
        querystring: paginationQuery,
        response: { 200: listOf(groupMemberResource), "4xx": errorBody },
      },
    },
    async (request) => {
      const { groupId } = request.params;
      const { manages } = await visibleGroup(views, principalOf(request).user.id, groupId);
      const { cursor, limit } = request.query;
      const rows = await views.access.groupMembers(groupId, decodeListCursor(cursor), limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, limit, (member) => ({
        position: member.position,
        id: member.memberId,
      }));
      const users = await views.users.getMany(kept.map((member) => member.memberId));
      return {
        data: kept.map((member) => toGroupMemberResource(member, users.get(member.memberId), manages)),
        nextCursor,
      };
    },
  );
}
