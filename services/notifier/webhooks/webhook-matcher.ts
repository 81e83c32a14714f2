// Which webhooks an event or a notification goes to: subscribed name, created before it, inside the webhook's
// folder, visible to its owner now (share events: shareable by them); `notification.created` goes only to the
// notified user's own webhooks. The webhook worker (webhook-worker.ts) matches the log with it, and checks a
// delivery again with it before sending.
import { effectivePermission, type AccessTarget } from "../../../shared/access/effective-permission.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import { managesWorkspace } from "../../../shared/groups/visible-group.ts";
import type { HistoryAccess } from "../../../shared/history/history.view.ts";
import { accessTargetOf } from "../../../shared/history/read-history.ts";
import { atLeast } from "../../../shared/kernel/permissions.ts";
import { visibilityOf } from "../../../shared/notifications/list-notifications.ts";
import type { NotificationRecord } from "../../../shared/notifications/notifications.view.ts";
import type { ReadStore } from "../../../shared/read-store/read-store.port.ts";
import type { NewDelivery } from "../../../shared/webhooks/webhook-deliveries.port.ts";
import { webhookEventNameOf } from "../../../shared/webhooks/webhook-event-name-of.ts";
import { subscribesTo } from "../../../shared/webhooks/webhook-event-names.ts";
import {
  deliveryIdOf,
  notificationPayload,
  scopeOf,
  webhookPayload,
} from "../../../shared/webhooks/webhook-payload.ts";
import type { WebhookRecord } from "../../../shared/webhooks/webhooks.view.ts";

/** Notifications read from the read model at a time. */
const NOTIFICATIONS_BATCH = 500;

export class WebhookMatcher {
  constructor(
    private readonly readStore: ReadStore,
    private readonly clock: () => Date,
  ) {}

  async match(
    events: readonly StoredEvent[],
    webhooks: readonly WebhookRecord[],
    origin: string,
    replay = false,
  ): Promise<NewDelivery[]> {
    const rows: NewDelivery[] = [];
    const targets = new Map<string, Promise<AccessTarget | null>>();
    const now = this.clock().toISOString();
    for (const stored of events) {
      const type = webhookEventNameOf(stored.event);
      if (!type) continue;
      const candidates = webhooks.filter(
        (webhook) => subscribesTo(webhook.events, type) && (replay || stored.position > webhook.position),
      );
      if (candidates.length === 0) continue;
      const scope = await scopeOf(this.readStore, stored);
      if (!scope) continue;
      for (const webhook of candidates) {
        if (!(await this.visibleTo(webhook, scope, type.startsWith("share."), targets))) continue;
        rows.push({
          id: deliveryIdOf(webhook.id, stored.id, origin),
          webhookId: webhook.id,
          ownerId: webhook.ownerId,
          eventId: stored.id,
          type,
          position: stored.position,
          payload: webhookPayload(stored, type, scope),
          createdAt: now,
          nextAttemptAt: now,
          traceparent: stored.metadata.traceparent ?? null,
        });
      }
    }
    return rows;
  }

  /**
   * `notification.created` deliveries: the notifications whose latest change is in (after, upTo], each to the
   * webhooks of the user it notifies that subscribe to it, were created before it, and (a folder's webhook) whose
   * folder holds its page or folder. Nobody else's webhook matches, whatever it subscribes to.
   */
  async matchNotifications(
    events: readonly StoredEvent[],
    after: number,
    upTo: number,
    webhooks: readonly WebhookRecord[],
  ): Promise<NewDelivery[]> {
    const byOwner = new Map<string, WebhookRecord[]>();
    for (const webhook of webhooks) {
      if (!subscribesTo(webhook.events, "notification.created")) continue;
      byOwner.set(webhook.ownerId, [...(byOwner.get(webhook.ownerId) ?? []), webhook]);
    }
    if (byOwner.size === 0) return [];
    const byPosition = new Map(events.map((stored) => [stored.position, stored]));
    const now = this.clock().toISOString();
    const rows: NewDelivery[] = [];
    let from: { readonly position: number; readonly id: string } | null = null;
    for (;;) {
      const page = await this.readStore.notifications.producedBetween(after, upTo, from, NOTIFICATIONS_BATCH);
      for (const record of page) {
        const cause = byPosition.get(record.position);
        for (const webhook of byOwner.get(record.userId) ?? []) {
          if (record.position <= webhook.position || !(await this.notificationVisible(webhook, record))) continue;
          rows.push({
            id: deliveryIdOf(webhook.id, `${record.id}@${String(record.position)}`, "notification"),
            webhookId: webhook.id,
            ownerId: webhook.ownerId,
            eventId: cause?.id ?? record.id,
            type: "notification.created",
            position: record.position,
            payload: notificationPayload(record),
            createdAt: now,
            nextAttemptAt: now,
            traceparent: cause?.metadata.traceparent ?? null,
          });
        }
      }
      const last = page.at(-1);
      if (page.length < NOTIFICATIONS_BATCH || !last) return rows;
      from = last;
    }
  }

  /**
   * The owner's notification as their list shows it (about what they can still view), and for a folder's
   * webhook about a page or folder inside that folder; a webhook of the whole workspace takes all of them.
   */
  async notificationVisible(webhook: WebhookRecord, record: NotificationRecord): Promise<boolean> {
    if (record.userId !== webhook.ownerId) return false;
    const context = await this.readStore.access.contextFor(webhook.ownerId);
    if (!(await visibilityOf(this.readStore, context)(record))) return false;
    if (webhook.folderId === null) return true;
    const thread = record.threadId ? await this.readStore.threads.get(record.threadId) : null;
    const scope: HistoryAccess | null = thread
      ? { kind: "page", id: thread.pageId }
      : record.pageId
        ? { kind: "page", id: record.pageId }
        : record.folderId
          ? { kind: "folder", id: record.folderId }
          : null;
    return scope !== null && (await this.visibleTo(webhook, scope, false));
  }

  /** The owner may view the event's page or folder now (share events: may share it), inside the webhook's folder. */
  async visibleTo(
    webhook: WebhookRecord,
    scope: HistoryAccess,
    sharing: boolean,
    targets = new Map<string, Promise<AccessTarget | null>>(),
  ): Promise<boolean> {
    // A group's changes: seen by the workspace's owner and admins, through a webhook on the whole workspace.
    if (scope.kind === "workspace")
      return (
        webhook.folderId === null && managesWorkspace(await this.readStore.access.contextFor(webhook.ownerId), scope.id)
      );
    const key = `${scope.kind}:${scope.id}`;
    let target = targets.get(key);
    if (!target) {
      target = accessTargetOf(this.readStore, scope);
      targets.set(key, target);
    }
    const resolved = await target;
    if (!resolved) return false;
    if (
      webhook.folderId !== null &&
      !(resolved.kind === "folder" && resolved.id === webhook.folderId) &&
      !resolved.ancestorIds.includes(webhook.folderId)
    )
      return false;
    const permission = effectivePermission(await this.readStore.access.contextFor(webhook.ownerId), resolved);
    return permission !== null && (!sharing || atLeast(permission, "admin"));
  }
}
