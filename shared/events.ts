// Every domain event the system records, as one discriminated union validated on write and on read.
import { z } from "zod";
import { threadEventSchemas } from "./threads/thread.decider.ts";
import type { EventMetadata, RecordedEvent } from "./event-store/event-store.port.ts";
import { schemaVersionOf, upcast } from "./event-store/upcasters.ts";
import { folderEventSchemas } from "./folders/folder.decider.ts";
import { imageEventSchemas } from "./images/image.decider.ts";
import { attachmentEventSchemas } from "./attachments/attachment.decider.ts";
import { folderTreeEventSchemas } from "./folders/folder-tree.decider.ts";
import { idempotencyEventSchemas } from "./idempotency/idempotency.decider.ts";
import { invitationSlotEventSchemas } from "./sharing/invitation-slot.decider.ts";
import { pageEventSchemas } from "./pages/page.decider.ts";
import { entityAccessEventSchemas } from "./sharing/entity-access.decider.ts";
import { invitationEventSchemas } from "./sharing/invitation.decider.ts";
import { workspaceEventSchemas } from "./sharing/workspace.decider.ts";
import { groupEventSchemas } from "./groups/group.decider.ts";
import { tokenEventSchemas } from "./tokens/token.decider.ts";
import { appEventSchemas } from "./apps/app.decider.ts";
import { emailReservationEventSchemas, userEventSchemas } from "./users/user.decider.ts";
import { webhookEventSchemas } from "./webhooks/webhook.decider.ts";
import { shareLinkEventSchemas } from "./share-links/share-link.decider.ts";
import { keyStoreBindingEventSchemas } from "./erasure/key-store-binding.ts";
import { signInLinkEventSchemas } from "./auth/sign-in/sign-in-link.decider.ts";
import { templateEventSchemas } from "./templates/template.decider.ts";
import { watchEventSchemas } from "./watching/watch.decider.ts";
import { notificationSettingsEventSchemas } from "./watching/notification-settings.decider.ts";
import { notificationInboxEventSchemas } from "./notifications/notification-inbox.decider.ts";
import { vaultExportEventSchemas } from "./exports/vault-export.decider.ts";
import { notificationMailEventSchemas } from "./notifications/notification-mail.decider.ts";

export const domainEventSchema = z.discriminatedUnion("type", [
  ...userEventSchemas,
  ...emailReservationEventSchemas,
  ...tokenEventSchemas,
  ...appEventSchemas,
  ...folderEventSchemas,
  ...folderTreeEventSchemas,
  ...pageEventSchemas,
  ...threadEventSchemas,
  ...entityAccessEventSchemas,
  ...workspaceEventSchemas,
  ...groupEventSchemas,
  ...invitationEventSchemas,
  ...invitationSlotEventSchemas,
  ...idempotencyEventSchemas,
  ...imageEventSchemas,
  ...attachmentEventSchemas,
  ...webhookEventSchemas,
  ...shareLinkEventSchemas,
  ...keyStoreBindingEventSchemas,
  ...signInLinkEventSchemas,
  ...templateEventSchemas,
  ...watchEventSchemas,
  ...notificationSettingsEventSchemas,
  ...notificationInboxEventSchemas,
  ...vaultExportEventSchemas,
  ...notificationMailEventSchemas,
]);
export type DomainEvent = z.infer<typeof domainEventSchema>;
export type DomainEventType = DomainEvent["type"];

/** A domain event as read back from the store, with its place in history. */
export interface StoredEvent<E extends DomainEvent = DomainEvent> {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly position: number;
  readonly metadata: EventMetadata;
  readonly event: E;
}

export class CorruptEventError extends Error {}

/**
 * A recorded event validated in its type's current shape: data stored in an older schema version is upcast
 * first (never rewritten in the store), and the metadata then names the version the event is read as.
 */
export function parseRecorded(recorded: RecordedEvent): StoredEvent {
  let data: unknown;
  try {
    data = upcast(recorded.type, recorded.metadata.schemaVersion, recorded.data);
  } catch (error) {
    throw new CorruptEventError(
      `event ${recorded.id} (${recorded.type} v${recorded.metadata.schemaVersion}) at position ${recorded.position} cannot be upcast: ${String(error)}`,
    );
  }
  const parsed = domainEventSchema.safeParse({ type: recorded.type, data });
  if (!parsed.success) {
    throw new CorruptEventError(
      `event ${recorded.id} (${recorded.type}) at position ${recorded.position} does not match its schema`,
    );
  }
  return {
    id: recorded.id,
    stream: recorded.stream,
    revision: recorded.revision,
    position: recorded.position,
    metadata: { ...recorded.metadata, schemaVersion: schemaVersionOf(recorded.type) },
    event: parsed.data,
  };
}

/** A type guard for the events one decider owns, built from its schemas' type literals. */
export function eventGuard<E extends DomainEvent>(
  schemas: ReadonlyArray<{ shape: { type: { value: string } } }>,
): (event: DomainEvent) => event is E {
  const types = new Set(schemas.map((schema) => schema.shape.type.value));
  return (event): event is E => types.has(event.type);
}
