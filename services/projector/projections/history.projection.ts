// Every event of a page, folder, thread or group stream, and every grant on a page or folder, into the history
// change log, alongside whatever other projection the event has. The switch is exhaustive: a new event type
// does not compile until it is placed in some entity's history or explicitly left out.
import { ERASED_GROUP_NAME } from "../../../shared/erasure/erased-values.ts";
import type { DomainEvent, StoredEvent } from "../../../shared/events.ts";
import type { HistoryFolds } from "../../../shared/history/history-folds.ts";
import type { HistoryAccess, HistoryEntityKind, HistoryEntry } from "../../../shared/history/history.view.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

type Subject = { kind: HistoryEntityKind; id: string; access: HistoryAccess | "recorded" } | null;

function subjectOf(event: DomainEvent): Subject {
  switch (event.type) {
    case "PageCreated":
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
    case "PageDeleted":
    case "PageRestored":
    case "PageMoved":
    case "PageUndeleted":
      return { kind: "page", id: event.data.pageId, access: { kind: "page", id: event.data.pageId } };
    // A file attached to or removed from a page is a change of that page, read with its permission.
    case "AttachmentUploaded":
    case "AttachmentReplaced":
    case "AttachmentDeleted":
      return { kind: "page", id: event.data.pageId, access: { kind: "page", id: event.data.pageId } };
    case "FolderCreated":
    case "FolderRenamed":
    case "FolderIconChanged":
    case "FolderDeleted":
    case "FolderMoved":
    case "FolderUndeleted":
      return { kind: "folder", id: event.data.folderId, access: { kind: "folder", id: event.data.folderId } };
    case "AccessGranted":
    case "AccessRevoked":
    case "GroupAccessGranted":
    case "GroupAccessRevoked": {
      const { entityType, entityId } = event.data;
      return { kind: entityType, id: entityId, access: { kind: entityType, id: entityId } };
    }
    case "ShareLinkCreated":
    case "ShareLinkChanged":
    case "ShareLinkRevoked": {
      const { entityType, entityId } = event.data;
      return { kind: entityType, id: entityId, access: { kind: entityType, id: entityId } };
    }
    case "ThreadOpened":
      return { kind: "thread", id: event.data.threadId, access: { kind: "page", id: event.data.pageId } };
    case "CommentAdded":
    case "CommentEdited":
    case "CommentDeleted":
    case "ThreadResolved":
    case "ThreadReopened":
      return { kind: "thread", id: event.data.threadId, access: "recorded" };
    // A purge happens to an item nobody can read any more: there is no history left to show it in.
    case "PagePurged":
    case "FolderPurged":
    case "UserRegistered":
    case "UserProfileChanged":
    case "UserErasureStarted":
    case "UserErased":
    case "EmailReserved":
    case "EmailReleased":
    case "KeyStoreBound":
    case "InvitationSlotTaken":
    case "IdempotencyKeyClaimed":
    case "IdempotentRequestCompleted":
    case "IdempotencyKeyReleased":
    case "SignInLinkUsed":
    case "NotificationsRead":
    case "NotificationMailed":
    case "NotificationDigestStarted":
    case "NotificationDigestMailed":
    case "TokenCreated":
    case "TokenUsed":
    case "TokenRevoked":
    case "OAuthClientRegistered":
    case "AppAuthorized":
    case "AppRevoked":
    case "WorkspaceMemberAdded":
    case "WorkspaceMemberRoleChanged":
    case "WorkspaceMemberRemoved":
    case "InvitationQueued":
    case "InvitationPermissionChanged":
    case "InvitationResent":
    case "InvitationAccepted":
    case "InvitationExpired":
    case "InvitationCancelled":
    case "InvitationDelivered":
    case "InvitationDeliveryStarted":
    case "InvitationDeliveryFailed":
    case "InvitationAddressErased":
      return null; // not the history of a page, folder or thread (an accepted invitation's grant is AccessGranted)
    case "ImageUploaded":
      return null; // an upload changes no page: the page changes when its markdown takes the image in
    case "WebhookCreated":
    case "WebhookUpdated":
    case "WebhookDisabled":
    case "WebhookDeleted":
      return null; // a webhook's settings are its owner's, not a page's or folder's history
    case "ShareLinkViewed":
      return null; // a count, not a change: it shows in the link's record (views, lastViewedAt)
    // A group's own changes: seen by those who manage its workspace and by its members (its grants are the
    // history of the page or folder shared).
    case "GroupCreated":
    case "GroupRenamed":
    case "GroupDeleted":
    case "GroupMemberAdded":
    case "GroupMemberRemoved":
    case "GroupRoleChanged":
      return { kind: "group", id: event.data.groupId, access: { kind: "workspace", id: event.data.ownerId } };
    case "PageMarkedTemplate":
    case "PageUnmarkedTemplate":
    case "PageWatched":
    case "PageUnwatched":
      return { kind: "page", id: event.data.pageId, access: { kind: "page", id: event.data.pageId } };
    case "FolderWatched":
    case "FolderUnwatched":
      return { kind: "folder", id: event.data.folderId, access: { kind: "folder", id: event.data.folderId } };
    case "NotificationSettingsChanged":
      return null; // a user's own settings, not a page's or folder's history
    case "VaultExported":
      return null; // a read of many pages, not a change of one

    default: {
      const unhandled: never = event;
      throw new Error(`history: no decision for ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * The event as its entry keeps it. A group's name is personal data sealed under its owner's key: the history keeps
 * no copy of it (its summaries name the group by id), so an erasure has nothing to find here.
 */
function keptEvent(event: DomainEvent): DomainEvent {
  if (event.type === "GroupCreated") return { ...event, data: { ...event.data, name: ERASED_GROUP_NAME } };
  if (event.type === "GroupRenamed") return { ...event, data: { ...event.data, name: ERASED_GROUP_NAME } };
  return event;
}

/** Records the event's entry with its summary, computed here once (against the batch's folds) and stored. */
export async function projectHistory<Tx>(
  stored: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  folds: HistoryFolds<Tx>,
): Promise<void> {
  const subject = subjectOf(stored.event);
  if (!subject) return;
  const access = subject.access === "recorded" ? await writers.history.accessOf(tx, subject.id) : subject.access;
  if (!access)
    throw new Error(
      `history: ${stored.event.type} at ${stored.position} names ${subject.kind} ${subject.id}, which has no recorded entry`,
    );
  const entry: HistoryEntry = {
    position: stored.position,
    entityKind: subject.kind,
    entityId: subject.id,
    access,
    occurredAt: stored.metadata.occurredAt,
    actorId: stored.metadata.actorId,
    tokenId: stored.metadata.tokenId ?? null,
    correlationId: stored.metadata.correlationId,
    event: keptEvent(stored.event),
  };
  const summary = await folds.summarise(entry);
  if (summary) await writers.history.record(tx, entry, summary);
}
