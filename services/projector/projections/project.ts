// Routes each stored event to the projection that owns its type; the exhaustive switch makes a new event
// type fail to compile until some projection handles it.
import type { DomainEvent, StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { ProjectionName } from "../../../shared/read-store/parked-events.port.ts";
import { projectThread } from "./threads.projection.ts";
import { projectAccess } from "./access.projection.ts";
import { projectGroup } from "./groups.projection.ts";
import { projectImage } from "./images.projection.ts";
import { projectAttachment } from "./attachments.projection.ts";
import type { HistoryFolds } from "../../../shared/history/history-folds.ts";
import { projectHistory } from "./history.projection.ts";
import { projectLinks } from "./links.projection.ts";
import { projectTrash } from "./trash.projection.ts";
import { projectPurge } from "./purge.projection.ts";
import { projectStoredBytes } from "./stored-bytes.projection.ts";
import { projectFolder } from "./folders.projection.ts";
import { projectInvitation } from "./invitations.projection.ts";
import { projectPage } from "./pages.projection.ts";
import { projectToken } from "./tokens.projection.ts";
import { projectApp } from "./apps.projection.ts";
import { projectUser } from "./users.projection.ts";
import { projectWebhook } from "./webhooks.projection.ts";
import { projectShareLink } from "./share-links.projection.ts";
import { projectTemplate } from "./templates.projection.ts";
import { projectAutomaticWatches, projectWatch } from "./watches.projection.ts";
import { projectMentions } from "./mentions.projection.ts";
import { projectDirectory } from "./directory.projection.ts";
import { projectNotifications } from "./notifications.projection.ts";
import { projectAudit } from "./audit.projection.ts";

function narrow<E extends DomainEvent>(stored: StoredEvent, event: E): StoredEvent<E> {
  return { ...stored, event };
}

/**
 * Runs one projection's part of an event: the projector's guard applies it, parks it (parked-events.port.ts),
 * or leaves it out, and names the projection in what it throws.
 */
export type ProjectionGuard = (projection: ProjectionName, apply: () => Promise<void>) => Promise<void>;

const applyAll: ProjectionGuard = (_projection, apply) => apply();

/** `folds` is the batch's history memory: one per batch, flushed after its last event. */
export async function project<Tx>(
  stored: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
  folds: HistoryFolds<Tx>,
  guard: ProjectionGuard = applyAll,
): Promise<void> {
  await guard("history", () => projectHistory(stored, writers, tx, folds));
  // After history (a thread's page is found there), before the purge (a purged page's owner is found).
  await guard("audit", () => projectAudit(stored, writers, tx));
  // Before the purge projection: a purge's total is taken off while the page and its files' records are there.
  await guard("storedBytes", () => projectStoredBytes(stored, writers, tx));
  await guard("links", () => projectLinks(stored, writers, tx));
  await guard("notifications", () => projectNotifications(stored, writers, tx));
  await guard("trash", () => projectTrash(stored, writers, tx));
  await guard("purge", () => projectPurge(stored, writers, tx, folds));
  await guard("watches", () => projectAutomaticWatches(stored, writers, tx));
  await guard("mentions", () => projectMentions(stored, writers, tx));
  await guard("directory", () => projectDirectory(stored, writers, tx));
  const event = stored.event;
  switch (event.type) {
    case "UserRegistered":
    case "UserProfileChanged":
    case "UserErasureStarted":
    case "UserErased":
    case "EmailReserved":
    case "EmailReleased":
      return guard("users", () => projectUser(narrow(stored, event), writers, tx));
    case "KeyStoreBound":
      return; // which key store the log was written with: checked at start, shown nowhere
    case "InvitationSlotTaken":
      return; // bookkeeping for the command side only: no read model shows it
    case "IdempotencyKeyClaimed":
    case "IdempotentRequestCompleted":
    case "IdempotencyKeyReleased":
      return; // the command API's record of Idempotency-Keys: replayed from the event store, never queried
    case "SignInLinkUsed":
      return; // a one-time sign-in link's use: read back from its stream by the next attempt, never queried
    case "VaultExported":
      return; // the audit projection (above) records it
    case "NotificationsRead":
      return;
    case "NotificationMailed":
    case "NotificationDigestStarted":
    case "NotificationDigestMailed":
      return; // the notifier's record of what it mailed: read back from its own streams, never queried // the notifications projection (above) applies them
    case "TokenCreated":
    case "TokenUsed":
    case "TokenRevoked":
      return guard("tokens", () => projectToken(narrow(stored, event), writers, tx));
    case "OAuthClientRegistered":
      return; // the authorization server reads a client's registration from its stream
    case "AppAuthorized":
    case "AppRevoked":
      return guard("apps", () => projectApp(narrow(stored, event), writers, tx));
    case "FolderCreated":
    case "FolderRenamed":
    case "FolderIconChanged":
    case "FolderDeleted":
    case "FolderMoved":
    case "FolderUndeleted":
    case "FolderPurged":
      return guard("folders", () => projectFolder(narrow(stored, event), writers, tx));
    case "PageCreated":
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
    case "PageDeleted":
    case "PageRestored":
    case "PageMoved":
    case "PageUndeleted":
    case "PagePurged":
      return guard("pages", () => projectPage(narrow(stored, event), writers, tx));
    case "ThreadOpened":
    case "CommentAdded":
    case "CommentEdited":
    case "CommentDeleted":
    case "ThreadResolved":
    case "ThreadReopened":
      return guard("threads", () => projectThread(narrow(stored, event), writers, tx));
    case "AccessGranted":
    case "AccessRevoked":
    case "WorkspaceMemberAdded":
    case "WorkspaceMemberRoleChanged":
    case "WorkspaceMemberRemoved":
      return guard("access", () => projectAccess(narrow(stored, event), writers, tx));
    case "GroupAccessGranted":
    case "GroupAccessRevoked":
      return guard("access", () => projectAccess(narrow(stored, event), writers, tx));
    case "GroupCreated":
    case "GroupRenamed":
    case "GroupDeleted":
    case "GroupMemberAdded":
    case "GroupMemberRemoved":
    case "GroupRoleChanged":
      return guard("groups", () => projectGroup(narrow(stored, event), writers, tx));
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
      return guard("invitations", () => projectInvitation(narrow(stored, event), writers, tx));
    case "ImageUploaded":
      return guard("images", () => projectImage(narrow(stored, event), writers, tx));
    case "AttachmentUploaded":
    case "AttachmentReplaced":
    case "AttachmentDeleted":
      return guard("attachments", () => projectAttachment(narrow(stored, event), writers, tx));
    case "WebhookCreated":
    case "WebhookUpdated":
    case "WebhookDisabled":
    case "WebhookDeleted":
      return guard("webhooks", () => projectWebhook(narrow(stored, event), writers, tx));
    case "ShareLinkCreated":
    case "ShareLinkChanged":
    case "ShareLinkRevoked":
    case "ShareLinkViewed":
      return guard("shareLinks", () => projectShareLink(narrow(stored, event), writers, tx));
    case "PageMarkedTemplate":
    case "PageUnmarkedTemplate":
      return guard("templates", () => projectTemplate(narrow(stored, event), writers, tx));
    case "PageWatched":
    case "PageUnwatched":
    case "FolderWatched":
    case "FolderUnwatched":
    case "NotificationSettingsChanged":
      return guard("watches", () => projectWatch(narrow(stored, event), writers, tx));
    default: {
      const unhandled: never = event;
      throw new Error(`no projection for ${JSON.stringify(unhandled)}`);
    }
  }
}
