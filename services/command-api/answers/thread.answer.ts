// A comment thread as a write to it answers it: the whole thread, as a client will read it once the read models
// show the write; meanwhile its stream folded with the read model's own record fold.
import { presentThread } from "../../../shared/threads/list-threads.ts";
import type { ThreadOnPage } from "../../../shared/threads/thread.commands.ts";
import { threadStream } from "../../../shared/threads/thread.decider.ts";
import { threadRecord } from "../../../shared/threads/thread.record.ts";
import { presentThreads, type ThreadResource } from "../../../shared/threads/thread.resource.ts";
import { recordOfStream } from "../../../shared/commands/record-of-stream.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { pageIdSchema } from "../../../shared/kernel/ids.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import { answerOf, type Answer } from "./answer.ts";

export const threadAnswer = (target: ThreadOnPage): Answer<ThreadResource> =>
  answerOf(
    async (ports) => ({ body: await presentThread(ports.views, target) }),
    async (ports) => {
      const thread = await recordOfStream(ports.eventStore, threadStream(target.threadId), threadRecord);
      const page = thread ? await pageCommands.load(ports.eventStore, pageIdSchema.parse(thread.pageId)) : null;
      const markdown = page && page.status === "live" ? page.markdown : "";
      const [presented] = thread ? await presentThreads(ports.views.users, [thread], markdown) : [];
      if (!presented) throw new AppError("internal", "thread was not recorded");
      return { body: presented };
    },
  );
