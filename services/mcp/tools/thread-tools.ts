// The comment tools (pages:comment): comment_on_page (a new thread anchored on a quote, or a reply),
// resolve_thread and list_comments, through the thread commands and queries the HTTP routes use.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { commentOnThread } from "../../../shared/threads/thread.commands.ts";
import { threadStatusSchema, type ThreadCommand } from "../../../shared/threads/thread.decider.ts";
import { anchorField, commentBody } from "../../../shared/threads/thread.fields.ts";
import { listThreads, threadFilterSchema } from "../../../shared/threads/list-threads.ts";
import { threadResource } from "../../../shared/threads/thread.resource.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { unreachableMentionsField } from "../../../shared/mentions/mentions.resource.ts";
import { unreachableMentionsOn } from "../../../shared/mentions/unreachable-mentions.ts";
import {
  commentIdSchema,
  pageIdSchema,
  threadIdSchema,
  type PageId,
  type ThreadId,
} from "../../../shared/kernel/ids.ts";
import { threadAnswer } from "../../command-api/answers/thread.answer.ts";
import type { CommandApiPorts } from "../../command-api/command-api-ports.ts";
import { ADDITIVE, defineTool, IDEMPOTENT_CHANGE, READ_ONLY, type McpTool } from "../mcp-tool.ts";
import { toolWrites, writeOutput } from "../write-outcome.ts";

const threadOutput = writeOutput({
  thread: threadResource,
  unreachableMentions: unreachableMentionsField.describe(
    "on a comment written: the user ids its body mentions who cannot view the page (or are unknown); those mentions notify no one",
  ),
});

export function threadTools(ports: CommandApiPorts): McpTool[] {
  const writes = toolWrites(ports);
  const decideThread = async (actor: Actor, target: { pageId: PageId; threadId: ThreadId }, command: ThreadCommand) => {
    const { position } = await commentOnThread.run(ports, actor, target, () => command);
    const mentions =
      "body" in command
        ? { unreachableMentions: await unreachableMentionsOn(ports.views, target.pageId, command.body) }
        : {};
    const settled = await writes.settle(actor, position, {
      id: target.threadId,
      answer: threadAnswer(target).map((thread) => ({ thread })),
    });
    return { ...settled, ...mentions };
  };

  return [
    defineTool({
      name: "comment_on_page",
      title: "Comment on a page",
      description:
        "Opens a comment thread anchored on an exact quote of the page (with a little text before and after it to place it), or, with threadId, replies in a thread.",
      scope: "pages:comment",
      budget: "write",
      input: z.object({
        pageId: pageIdSchema,
        body: commentBody,
        anchor: anchorField.optional().describe("for a new thread: the quoted text it is about"),
        threadId: threadIdSchema.optional().describe("to reply in this thread instead"),
        idempotencyKey: z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe("the same call with the same key within 24 hours is made once"),
      }),
      output: threadOutput,
      annotations: { ...ADDITIVE, title: "Comment on a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { idempotencyKey, ...fields } = args;
        const { pageId, body, anchor, threadId } = fields;
        if ((anchor === undefined) === (threadId === undefined))
          throw new AppError("validation_failed", "send anchor to open a thread, or threadId to reply in one");
        return writes.once(
          actor,
          { tool: "comment_on_page", key: idempotencyKey, args: fields, output: threadOutput },
          () => {
            const commentId = commentIdSchema.parse(randomUUID());
            const authorId = actor.context.actorId;
            if (threadId !== undefined)
              return decideThread(
                actor,
                { pageId, threadId },
                { type: "AddReply", threadId, pageId, commentId, authorId, body },
              );
            const opened = threadIdSchema.parse(randomUUID());
            const quote = anchor ?? { quote: "", prefix: "", suffix: "" };
            return decideThread(
              actor,
              { pageId, threadId: opened },
              { type: "OpenThread", threadId: opened, pageId, anchor: quote, commentId, authorId, body },
            );
          },
        );
      },
    }),
    defineTool({
      name: "resolve_thread",
      title: "Resolve or reopen a comment thread",
      description: 'Marks a page\'s comment thread resolved (or, with status "open", reopens it).',
      scope: "pages:comment",
      budget: "write",
      input: z.object({
        pageId: pageIdSchema,
        threadId: threadIdSchema,
        status: threadStatusSchema.default("resolved"),
      }),
      output: threadOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Resolve a thread" },
      async run(args, caller) {
        const actor = caller.actor();
        const { pageId, threadId, status } = args;
        return threadOutput.parse(
          await decideThread(
            actor,
            { pageId, threadId },
            { type: "SetThreadStatus", threadId, pageId, status, actorId: actor.context.actorId },
          ),
        );
      },
    }),
    defineTool({
      name: "list_comments",
      title: "List a page's comment threads",
      description: "A page's comment threads, newest first, each with its comments oldest first.",
      scope: "pages:comment",
      budget: "read",
      input: z.object({
        pageId: pageIdSchema,
        status: threadFilterSchema.default("open"),
        limit: z.number().int().min(1).max(100).default(50),
        cursor: z.string().min(1).max(200).optional(),
      }),
      output: z.object({ threads: z.array(threadResource), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "List comments" },
      async run(args, caller) {
        const { pageId, ...query } = args;
        const { data, nextCursor } = await listThreads(ports.views, caller.principal, pageId, query);
        return { threads: data, nextCursor };
      },
    }),
  ];
}
