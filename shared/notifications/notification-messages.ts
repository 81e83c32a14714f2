// The integration message `notification.created`: one per notification a batch of events created or updated
// (a coalesced one again), ids and kind only, so no name, title or address travels on the bus. Its id is derived
// from the notification and the position of its change, so publishing a batch again publishes the same ids, which
// the bus deduplicates.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { BusMessage } from "../bus/bus.port.ts";
import type { StoredEvent } from "../events.ts";
import { userIdSchema } from "../kernel/ids.ts";
import { notificationKindSchema } from "./notification-kinds.ts";
import type { NotificationRecord, NotificationsView } from "./notifications.view.ts";

export const NOTIFICATION_CREATED = "notification.created";

export const notificationCreatedSchema = z.object({
  notificationId: z.uuid(),
  userId: userIdSchema,
  kind: notificationKindSchema,
});

/** Notifications read per query while a batch's messages are made. */
const PAGE = 500;

function messageIdOf(notificationId: string, position: number): string {
  const hex = createHash("sha256").update(`${notificationId}@${position}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function messageOf(record: NotificationRecord, cause: StoredEvent | undefined): BusMessage {
  return {
    id: messageIdOf(record.id, record.position),
    subject: NOTIFICATION_CREATED,
    data: { notificationId: record.id, userId: record.userId, kind: record.kind },
    metadata: { ...cause?.metadata, ...(cause ? { stream: cause.stream } : {}), position: record.position },
  };
}

/**
 * Calls `publish` with the messages of the notifications whose latest change one of the batch's events made, page
 * by page (an event reaches at most MAX_RECIPIENTS_PER_EVENT people, so a batch's pages are bounded).
 */
export async function publishNotificationMessages(
  view: Pick<NotificationsView, "producedBetween">,
  batch: readonly StoredEvent[],
  publish: (messages: readonly BusMessage[]) => Promise<void>,
): Promise<void> {
  const first = batch[0];
  const last = batch[batch.length - 1];
  if (!first || !last) return;
  const byPosition = new Map(batch.map((stored) => [stored.position, stored]));
  let from: NotificationRecord | null = null;
  for (;;) {
    const page = await view.producedBetween(first.position - 1, last.position, from, PAGE);
    if (page.length > 0) await publish(page.map((record) => messageOf(record, byPosition.get(record.position))));
    if (page.length < PAGE) return;
    from = page[page.length - 1] ?? null;
  }
}
