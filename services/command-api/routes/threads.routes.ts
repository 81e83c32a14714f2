// Comment thread commands: open a thread, reply, edit or delete one's own comment, resolve and reopen.
// Every route needs `comment` permission on a page the caller can see; each answers with the whole thread.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { pageAccess } from "../../../shared/access/authorize.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import { commentOnThread, type ThreadOnPage } from "../../../shared/threads/thread.commands.ts";
import { threadStatusSchema, type ThreadCommand } from "../../../shared/threads/thread.decider.ts";
import { anchorField, commentBody } from "../../../shared/threads/thread.fields.ts";
import { commentWriteReply, threadReply } from "../../../shared/threads/thread.resource.ts";
import { unreachableMentionsOn } from "../../../shared/mentions/unreachable-mentions.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import {
  commentIdSchema,
  pageIdSchema,
  threadIdSchema,
  type CommentId,
  type PageId,
  type ThreadId,
} from "../../../shared/kernel/ids.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { threadAnswer } from "../answers/thread.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";

const pageParams = z.object({ pageId: pageIdSchema });
const threadParams = pageParams.extend({ threadId: threadIdSchema });
const commentParams = pageParams.extend({ commentId: commentIdSchema });
const bodyOnly = z.object({ body: commentBody });
const changedThread = writeResponses({ 200: threadReply });
const editedComment = writeResponses({ 200: commentWriteReply });
const createdComment = writeResponses({ 201: commentWriteReply });

const commentOnPage = pageAccess("comment");

/**
 * Commands addressed by comment id need the comment's thread; one on another page does not exist here. The
 * page is checked first: a real comment of a page the caller cannot see (or may only view) answers exactly as
 * a random id does, so the answer never tells which comments exist.
 */
async function threadOfComment(
  views: ReadModels,
  principal: Principal,
  pageId: PageId,
  commentId: CommentId,
): Promise<ThreadId> {
  await commentOnPage(views, principal, pageId);
  const location = await views.threads.locateComment(commentId);
  if (!location || location.pageId !== pageId) throw new AppError("not_found", "comment not found");
  return threadIdSchema.parse(location.threadId);
}

export function threadCommandRoutes(app: App, ports: CommandApiPorts): void {
  const config = { access: { scope: "pages:comment" as const } };
  const answer = answerWrites(ports);

  /**
   * The answer of a write to a thread: the whole thread; with `text`, the comment body written, the mentions in it
   * that reach nobody.
   */
  async function threadReplyOf(target: ThreadOnPage, status: 200 | 201, text?: string) {
    const mentions =
      text === undefined ? {} : { unreachableMentions: await unreachableMentionsOn(ports.views, target.pageId, text) };
    return { status, answer: threadAnswer(target).map((thread) => ({ thread, ...mentions })) };
  }

  /**
   * Runs the command behind the page's comment guard and answers with the thread; `created`, the comment it
   * adds, is the answer's Location; a command writing a comment's body answers its unreachable mentions too.
   */
  async function decideThread(actor: Actor, target: ThreadOnPage, command: ThreadCommand, created?: CommentId) {
    const { position } = await commentOnThread.run(ports, actor, target, () => command);
    const located = created === undefined ? {} : { location: locationOf.comment(target.pageId, created) };
    const text = "body" in command ? command.body : undefined;
    return { ...(await threadReplyOf(target, created === undefined ? 200 : 201, text)), ...located, position };
  }

  app.post(
    "/pages/:pageId/comments",
    {
      config,
      schema: {
        params: pageParams,
        body: z.object({ body: commentBody, anchor: anchorField }),
        response: createdComment,
      },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor, once }) =>
        once(() => {
          const { pageId } = request.params;
          const { anchor, body } = request.body;
          const threadId = threadIdSchema.parse(randomUUID());
          const commentId = commentIdSchema.parse(randomUUID());
          const command: ThreadCommand = {
            type: "OpenThread",
            threadId,
            pageId,
            anchor,
            commentId,
            authorId: actor.context.actorId,
            body,
          };
          return decideThread(actor, { pageId, threadId }, command, commentId);
        }),
      ),
  );

  app.post(
    "/pages/:pageId/comments/:threadId/replies",
    { config, schema: { params: threadParams, body: bodyOnly, response: createdComment } },
    async (request, reply) => {
      const { pageId, threadId } = request.params;
      // The answer is the whole thread, which grows without bound: a replay may present it again, as it is now, to
      // a caller who may still comment on the page.
      const again = (actor: Actor) => async () => {
        await commentOnPage(ports.views, actor.principal, pageId);
        return threadReplyOf({ pageId, threadId }, 201, request.body.body);
      };
      return answer(request, reply, ({ actor, once }) =>
        once(
          () => {
            const commentId = commentIdSchema.parse(randomUUID());
            const command: ThreadCommand = {
              type: "AddReply",
              threadId,
              pageId,
              commentId,
              authorId: actor.context.actorId,
              body: request.body.body,
            };
            return decideThread(actor, { pageId, threadId }, command, commentId);
          },
          { again: again(actor) },
        ),
      );
    },
  );

  app.patch(
    "/pages/:pageId/comments/:threadId/status",
    {
      config,
      schema: { params: threadParams, body: z.object({ status: threadStatusSchema }), response: changedThread },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor }) => {
        const { pageId, threadId } = request.params;
        const command: ThreadCommand = {
          type: "SetThreadStatus",
          threadId,
          pageId,
          status: request.body.status,
          actorId: actor.context.actorId,
        };
        return decideThread(actor, { pageId, threadId }, command);
      }),
  );

  app.patch(
    "/pages/:pageId/comments/:commentId",
    { config, schema: { params: commentParams, body: bodyOnly, response: editedComment } },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId, commentId } = request.params;
        const threadId = await threadOfComment(ports.views, actor.principal, pageId, commentId);
        const command: ThreadCommand = {
          type: "EditComment",
          threadId,
          pageId,
          commentId,
          actorId: actor.context.actorId,
          body: request.body.body,
        };
        return decideThread(actor, { pageId, threadId }, command);
      }),
  );

  app.delete(
    "/pages/:pageId/comments/:commentId",
    { config, schema: { params: commentParams, response: changedThread } },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId, commentId } = request.params;
        const threadId = await threadOfComment(ports.views, actor.principal, pageId, commentId);
        const command: ThreadCommand = {
          type: "DeleteComment",
          threadId,
          pageId,
          commentId,
          actorId: actor.context.actorId,
        };
        return decideThread(actor, { pageId, threadId }, command);
      }),
  );
}
