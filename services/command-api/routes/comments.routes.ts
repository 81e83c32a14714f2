// Comment thread commands: open a thread, reply, edit or delete one's own comment, resolve and reopen.
// Every route needs `comment` permission on a page the caller can see; each answers with the whole thread.
import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { requirePermission, visiblePage } from "../../../shared/access/authorize.ts";
import type { Dependencies } from "../../../shared/app/dependencies.ts";
import type { CommandContext } from "../../../shared/commands/command-context.ts";
import { awaitProjection } from "../../../shared/commands/commit.ts";
import { runCommand } from "../../../shared/commands/run-command.ts";
import { threadDecider, threadEventSchemas, threadStatusSchema, threadStream, type ThreadCommand, type ThreadEvent } from "../../../shared/comments/thread.decider.ts";
import { presentThreads, threadReply, type ThreadResource } from "../../../shared/comments/thread.resource.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { eventGuard } from "../../../shared/events.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { guard, principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { commentIdSchema, pageIdSchema, threadIdSchema, type CommentId, type PageId, type ThreadId } from "../../../shared/kernel/ids.ts";
import { contextOf } from "../context-of-request.ts";

const isThreadEvent = eventGuard<ThreadEvent>(threadEventSchemas);

const COMMENT_BODY_MAX_CHARS = 10_000;
const ANCHOR_QUOTE_MAX_CHARS = 2_000;
const ANCHOR_CONTEXT_MAX_CHARS = 500;

// Kept as sent (markdown may start with indentation), but a body of only whitespace says nothing.
const commentBody = z
  .string()
  .max(COMMENT_BODY_MAX_CHARS)
  .refine((body) => body.trim().length > 0, "must not be empty");
const anchorField = z.object({
  quote: z.string().min(1).max(ANCHOR_QUOTE_MAX_CHARS),
  prefix: z.string().max(ANCHOR_CONTEXT_MAX_CHARS).default(""),
  suffix: z.string().max(ANCHOR_CONTEXT_MAX_CHARS).default(""),
});

const pageParams = z.object({ pageId: pageIdSchema });
const threadParams = pageParams.extend({ threadId: threadIdSchema });
const commentParams = pageParams.extend({ commentId: commentIdSchema });
const bodyOnly = z.object({ body: commentBody });
const changedThread = { 200: threadReply, "4xx": errorBody };
const createdThread = { 201: threadReply, "4xx": errorBody };

/** 404 for a page the caller cannot see, 403 for one they may only read. */
async function requireCommentable(deps: Dependencies, request: FastifyRequest, pageId: PageId): Promise<void> {
  const { permission } = await visiblePage(deps.readStore, principalOf(request), pageId);
  requirePermission(permission, "comment", "page");
}

/** Commands addressed by comment id need the comment's thread; one on another page does not exist here. */
async function threadOfComment(deps: Dependencies, pageId: PageId, commentId: CommentId): Promise<ThreadId> {
  const location = await deps.readStore.threads.locateComment(commentId);
  if (!location || location.pageId !== pageId) throw new AppError("not_found", "comment not found");
  return threadIdSchema.parse(location.threadId);
}

/** Runs the command, waits until it is projected, and answers with the thread as a client will read it. */
async function decideThread(
  deps: Dependencies,
  context: CommandContext,
  reply: FastifyReply,
  command: ThreadCommand,
): Promise<{ thread: ThreadResource }> {
  const result = await runCommand(deps.eventStore, threadStream(command.threadId), threadDecider, isThreadEvent, command, context);
  await awaitProjection(deps, result.position, reply);
  const thread = await deps.readStore.threads.get(command.threadId);
  if (!thread) throw new AppError("internal", "thread was not recorded");
  const [presented] = await presentThreads(deps.readStore.users, [thread]);
  if (!presented) throw new AppError("internal", "thread was not recorded");
  return { thread: presented };
}

export function commentCommandRoutes(app: App, deps: Dependencies): void {
  const onRequest = guard(deps, { scope: "pages:comment" });

  app.post(
    "/pages/:pageId/comments",
    { onRequest, schema: { params: pageParams, body: z.object({ body: commentBody, anchor: anchorField }), response: createdThread } },
    async (request, reply) => {
      const { pageId } = request.params;
      await requireCommentable(deps, request, pageId);
      const context = contextOf(deps, request);
      const answer = await decideThread(deps, context, reply, {
        type: "OpenThread",
        threadId: threadIdSchema.parse(randomUUID()),
        pageId,
        anchor: request.body.anchor,
        commentId: commentIdSchema.parse(randomUUID()),
        authorId: context.actorId,
        body: request.body.body,
      });
      return reply.code(201).send(answer);
    },
  );

  app.post(
    "/pages/:pageId/comments/:threadId/replies",
    { onRequest, schema: { params: threadParams, body: bodyOnly, response: createdThread } },
    async (request, reply) => {
      const { pageId, threadId } = request.params;
      await requireCommentable(deps, request, pageId);
      const context = contextOf(deps, request);
      const answer = await decideThread(deps, context, reply, {
        type: "AddReply",
        threadId,
        pageId,
        commentId: commentIdSchema.parse(randomUUID()),
        authorId: context.actorId,
        body: request.body.body,
      });
      return reply.code(201).send(answer);
    },
  );

  app.patch(
    "/pages/:pageId/comments/:threadId/status",
    { onRequest, schema: { params: threadParams, body: z.object({ status: threadStatusSchema }), response: changedThread } },
    async (request, reply) => {
      const { pageId, threadId } = request.params;
      await requireCommentable(deps, request, pageId);
      const context = contextOf(deps, request);
      const command: ThreadCommand = { type: "SetThreadStatus", threadId, pageId, status: request.body.status, actorId: context.actorId };
      return reply.send(await decideThread(deps, context, reply, command));
    },
  );

  app.patch(
    "/pages/:pageId/comments/:commentId",
    { onRequest, schema: { params: commentParams, body: bodyOnly, response: changedThread } },
    async (request, reply) => {
      const { pageId, commentId } = request.params;
      await requireCommentable(deps, request, pageId);
      const threadId = await threadOfComment(deps, pageId, commentId);
      const context = contextOf(deps, request);
      const command: ThreadCommand = { type: "EditComment", threadId, pageId, commentId, actorId: context.actorId, body: request.body.body };
      return reply.send(await decideThread(deps, context, reply, command));
    },
  );

  app.delete(
    "/pages/:pageId/comments/:commentId",
    { onRequest, schema: { params: commentParams, response: changedThread } },
    async (request, reply) => {
      const { pageId, commentId } = request.params;
      await requireCommentable(deps, request, pageId);
      const threadId = await threadOfComment(deps, pageId, commentId);
      const context = contextOf(deps, request);
      const command: ThreadCommand = { type: "DeleteComment", threadId, pageId, commentId, actorId: context.actorId };
      return reply.send(await decideThread(deps, context, reply, command));
    },
  );
}
