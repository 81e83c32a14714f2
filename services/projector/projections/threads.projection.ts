// Thread events into the comment threads read model: the thread as `threadRecord` folds it, with the one comment
// the event names (a thread of any length is never read whole).
import type { ThreadEvent } from "../../../shared/threads/thread.decider.ts";
import { threadRecord } from "../../../shared/threads/thread.record.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectThread<Tx>(
  stored: StoredEvent<ThreadEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { data } = stored.event;
  const before = await writers.threads.get(tx, data.threadId, "commentId" in data ? data.commentId : null);
  const after = threadRecord.evolve(before, stored);
  if (after) await writers.threads.put(tx, after);
}
