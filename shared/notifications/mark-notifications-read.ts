// Marking notifications read is the user's own event on their read-marks stream, appended without reading the
// stream back (its length never costs a mark). Ids that are not the caller's, or about what they can no longer
// view, answer 404, as if they did not exist.
import type { CommandContext } from "../commands/command-context.ts";
import { toNewEvents } from "../commands/new-events.ts";
import { AppError } from "../errors/app-error.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { visibilityOf } from "./list-notifications.ts";
import { notificationInboxDecider, notificationReadsStream } from "./notification-inbox.decider.ts";

export type MarkRead = { readonly ids: readonly string[] } | { readonly all: true };

export async function markNotificationsRead(
  ports: {
    readonly eventStore: EventStore;
    readonly views: Pick<ReadModels, "notifications" | "pages" | "folders" | "access">;
    readonly checkpoint: () => Promise<number>;
  },
  context: CommandContext,
  mark: MarkRead,
): Promise<{ position: number | null }> {
  const userId = context.actorId;
  let command;
  if ("all" in mark) {
    // Everything the reader could have seen when they asked: what the read models held then.
    command = { type: "MarkAllNotificationsRead" as const, userId, upToPosition: await ports.checkpoint() };
  } else {
    const ids = [...new Set(mark.ids)];
    const found = await ports.views.notifications.getMany(userId, ids);
    const visible = visibilityOf(ports.views, await ports.views.access.contextFor(userId));
    for (const row of found) if (!(await visible(row))) throw new AppError("not_found", "notification not found");
    if (found.length !== ids.length) throw new AppError("not_found", "notification not found");
    command = {
      type: "MarkNotificationsRead" as const,
      userId,
      ids: found.filter((row) => row.readAt === null).map((row) => row.id),
    };
  }
  const events = notificationInboxDecider.decide(command, notificationInboxDecider.initialState);
  if (events.length === 0) return { position: null };
  const { position } = await ports.eventStore.append(
    notificationReadsStream(userId),
    toNewEvents(events, context),
    "any",
  );
  return { position };
}
