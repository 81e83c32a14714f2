// GET /audit: a workspace's audit trail, newest first, for its owner and admins (404 to anyone else).
import { z } from "zod";
import { auditKindSchema } from "../../../shared/audit/audit-entry.ts";
import { auditEntryResource } from "../../../shared/audit/audit.resource.ts";
import { listAudit } from "../../../shared/audit/list-audit.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

/** An instant with its offset, compared as entries store theirs: ISO-8601 in UTC with milliseconds. */
const instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .describe("ISO-8601 time with an offset; bound excluded");

const auditQuerystring = paginationQuery.extend({
  workspaceId: userIdSchema
    .optional()
    .describe("the workspace (its owner's id) whose trail to read; the caller's own when absent"),
  actorId: z.uuid().optional().describe("only entries of this actor"),
  kind: auditKindSchema.optional().describe("only entries of this kind"),
  after: instant.optional(),
  before: instant.optional(),
});

export function auditQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/audit",
    {
      config: { access: { scope: "pages:read" as const } },
      schema: { querystring: auditQuerystring, response: { 200: listOf(auditEntryResource), "4xx": errorBody } },
    },
    async (request) => listAudit(views, principalOf(request).user.id, request.query),
  );
}
