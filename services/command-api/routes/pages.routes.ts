// Page commands: create, rename or re-icon, replace the content under If-Match, and soft-delete.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ownerOfNewItem, requirePermission, visiblePage } from "../../../shared/access/authorize.ts";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import { awaitProjection } from "../../../shared/commands/commit.ts";
import type { CommandContext } from "../../../shared/commands/command-context.ts";
import { runCommand } from "../../../shared/commands/run-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { eventGuard } from "../../../shared/events.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { folderIdSchema, pageIdSchema, type PageId } from "../../../shared/kernel/ids.ts";
import { etagOf, renderPageDocument, revisionFromIfMatch, stripFrontmatter } from "../../../shared/pages/page-document.ts";
import { pageDecider, pageEventSchemas, pageStream, type PageCommand, type PageEvent } from "../../../shared/pages/page.decider.ts";
import { pageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import { contextOf } from "../context-of-request.ts";
import { iconField, MARKDOWN_MAX_CHARS, markdownField, titleField } from "./fields.ts";

const isPageEvent = eventGuard<PageEvent>(pageEventSchemas);

const createPageBody = z.object({
  title: titleField,
  markdown: markdownField.default(""),
  parentId: folderIdSchema.nullable().default(null),
  icon: iconField.nullable().default(null),
});

const updatePageBody = z
  .strictObject({ title: titleField.optional(), icon: iconField.nullable().optional() })
  .refine((body) => body.title !== undefined || body.icon !== undefined, "send title and/or icon");

const pageParams = z.object({ pageId: pageIdSchema });
const contentBody = z.union([z.string(), z.object({ markdown: markdownField })]);

async function decidePage(deps: Dependencies, pageId: PageId, command: PageCommand, context: CommandContext) {
  return runCommand(deps.eventStore, pageStream(pageId), pageDecider, isPageEvent, command, context);
}

export function pageCommandRoutes(app: App, deps: Dependencies): void {
  app.post(
    "/pages",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { body: createPageBody, response: { 201: pageResource, "4xx": errorBody } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { title, markdown, parentId, icon } = request.body;
      const ownerId = await ownerOfNewItem(deps.readStore, principal, parentId);
      const pageId = pageIdSchema.parse(randomUUID());
      const result = await decidePage(deps, pageId, { type: "CreatePage", pageId, ownerId, parentId, title, icon, markdown }, contextOf(deps, request));
      await awaitProjection(deps, result.position, reply);
      const { page, permission } = await visiblePage(deps.readStore, principal, pageId);
      return reply.code(201).send(toPageResource(page, permission));
    },
  );

  app.patch(
    "/pages/:pageId",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: pageParams, body: updatePageBody, response: { 200: pageResource, "4xx": errorBody } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { pageId } = request.params;
      const before = await visiblePage(deps.readStore, principal, pageId);
      requirePermission(before.permission, "edit", "page");
      const result = await decidePage(deps, pageId, { type: "UpdatePage", pageId, title: request.body.title, icon: request.body.icon }, contextOf(deps, request));
      await awaitProjection(deps, result.position, reply);
      const { page, permission } = await visiblePage(deps.readStore, principal, pageId);
      return reply.send(toPageResource(page, permission));
    },
  );

  app.put(
    "/pages/:pageId/content",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: pageParams, body: contentBody, response: { 200: z.string(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { pageId } = request.params;
      const before = await visiblePage(deps.readStore, principal, pageId);
      requirePermission(before.permission, "edit", "page");
      const ifMatchRevision = revisionFromIfMatch(request.headers["if-match"], before.page);
      const markdown = typeof request.body === "string" ? stripFrontmatter(request.body) : request.body.markdown;
      if (markdown.length > MARKDOWN_MAX_CHARS) throw new AppError("validation_failed", `body: the markdown is longer than ${MARKDOWN_MAX_CHARS} characters`);
      const result = await decidePage(deps, pageId, { type: "ReplaceContent", pageId, markdown, ifMatchRevision }, contextOf(deps, request));
      await awaitProjection(deps, result.position, reply);
      const content = await deps.readStore.pages.getContent(pageId);
      if (!content) throw new AppError("not_found", "page not found");
      return reply
        .header("etag", etagOf(content.page))
        .type("text/markdown; charset=utf-8")
        .send(renderPageDocument(content.page, content.markdown));
    },
  );

  app.delete(
    "/pages/:pageId",
    {
      onRequest: guard(deps, { scope: "pages:write" }),
      schema: { params: pageParams, response: { 204: z.null(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { pageId } = request.params;
      const { permission } = await visiblePage(deps.readStore, principal, pageId);
      requirePermission(permission, "edit", "page");
      const result = await decidePage(deps, pageId, { type: "DeletePage", pageId }, contextOf(deps, request));
      await awaitProjection(deps, result.position, reply);
      return reply.code(204).send(null);
    },
  );
}
