// WebhookCreated, WebhookUpdated, WebhookDisabled and WebhookDeleted into the webhooks read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { WebhookEvent } from "../../../shared/webhooks/webhook.decider.ts";

export async function projectWebhook<Tx>(
  { event, metadata, position }: StoredEvent<WebhookEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const at = metadata.occurredAt;
  switch (event.type) {
    case "WebhookCreated": {
      const { webhookId, ownerId, url, events, description, folderId, sealedSecret } = event.data;
      return writers.webhooks.put(tx, {
        id: webhookId,
        ownerId,
        url,
        events,
        description,
        folderId,
        sealedSecret,
        active: true,
        disabledReason: null,
        createdAt: at,
        updatedAt: at,
        position,
      });
    }
    case "WebhookUpdated": {
      const { webhookId, url, events, description, active } = event.data;
      // Turning a webhook on again clears why it was turned off.
      return writers.webhooks.update(tx, webhookId, {
        url,
        events,
        description,
        active,
        ...(active ? { disabledReason: null } : {}),
        updatedAt: at,
      });
    }
    case "WebhookDisabled":
      return writers.webhooks.update(tx, event.data.webhookId, {
        active: false,
        disabledReason: event.data.reason,
        updatedAt: at,
      });
    case "WebhookDeleted":
      return writers.webhooks.remove(tx, event.data.webhookId);
  }
}
