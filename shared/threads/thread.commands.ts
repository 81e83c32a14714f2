// Thread commands bound once: the thread decider on stream thread-<id>; every one needs comment permission on
// the page the thread is on (a page the caller cannot see is 404, one they may only read 403).
import { pageAccess } from "../access/authorize.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { guardedCommand } from "../commands/guarded-command.ts";
import type { PageId, ThreadId } from "../kernel/ids.ts";
import { threadDecider, threadEventSchemas, threadStream } from "./thread.decider.ts";

export interface ThreadOnPage {
  readonly pageId: PageId;
  readonly threadId: ThreadId;
}

const threadCommands = deciderCommandHandler({
  decider: threadDecider,
  streamOf: ({ threadId }: ThreadOnPage) => threadStream(threadId),
  eventSchemas: threadEventSchemas,
});

const commentOnPage = pageAccess("comment");

export const commentOnThread = guardedCommand(threadCommands, (views, principal, { pageId }: ThreadOnPage) =>
  commentOnPage(views, principal, pageId),
);
