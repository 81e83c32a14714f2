// The stored-bytes rule: a workspace owner's total is the image and attachment bytes on their pages until each
// page is purged. An upload adds its size; a purge (an erasure purges too) takes off every file the page held.
// Deleting an attachment, trashing a page and bringing it back change nothing: the bytes stay stored until the
// purge (docs/guide/attachments.md). New bytes replacing an attachment's move the total by the difference. The switch names every event, so a new one that stores or frees bytes
// cannot be left out. It runs before the purge projection, which removes the page and its files' records.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectStoredBytes<Tx>(
  { event, position }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "ImageUploaded":
    case "AttachmentUploaded": {
      // A file recorded after its page was purged (an upload racing the purge) is held by no page: not counted.
      const ownerId = await writers.pages.ownerOf(tx, event.data.pageId);
      if (ownerId === null) return;
      return writers.storedBytes.add(tx, ownerId, event.data.size, position);
    }
    case "AttachmentReplaced": {
      // New bytes under the same id: the total moves by the difference (this runs before the attachment's record
      // takes the new size).
      const ownerId = await writers.pages.ownerOf(tx, event.data.pageId);
      if (ownerId === null) return;
      const before = await writers.attachments.bytesOf(tx, event.data.attachmentId);
      return writers.storedBytes.add(tx, ownerId, event.data.size - before, position);
    }
    case "PagePurged": {
      const { pageId } = event.data;
      const ownerId = await writers.pages.ownerOf(tx, pageId);
      if (ownerId === null) return;
      // One after the other: a MongoDB transaction runs one operation of its session at a time.
      const images = await writers.images.bytesOfPage(tx, pageId);
      const attachments = await writers.attachments.bytesOfPage(tx, pageId);
      return writers.storedBytes.add(tx, ownerId, -(images + attachments), position);
    }
    case "UserRegistered":
    case "UserProfileChanged":
    case "UserErasureStarted":
    case "UserErased":
    case "EmailReserved":
    case "EmailReleased":
    case "KeyStoreBound":
    case "SignInLinkUsed":
    case "NotificationsRead":
    case "NotificationMailed":
    case "NotificationDigestStarted":
    case "NotificationDigestMailed":
    case "InvitationSlotTaken":
    case "IdempotencyKeyClaimed":
    case "IdempotentRequestCompleted":
    case "IdempotencyKeyReleased":
    case "TokenCreated":
    case "TokenUsed":
    case "TokenRevoked":
    case "OAuthClientRegistered":
    case "AppAuthorized":
    case "AppRevoked":
    case "FolderCreated":
    case "FolderRenamed":
    case "FolderIconChanged":
    case "FolderDeleted":
    case "FolderMoved":
    case "FolderUndeleted":
    case "FolderPurged":
    case "PageCreated":
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
    case "PageDeleted":
    case "PageRestored":
    case "PageMoved":
    case "PageUndeleted":
    case "ThreadOpened":
    case "CommentAdded":
    case "CommentEdited":
    case "CommentDeleted":
    case "ThreadResolved":
    case "ThreadReopened":
    case "AccessGranted":
    case "AccessRevoked":
    case "GroupAccessGranted":
    case "GroupAccessRevoked":
    case "GroupCreated":
    case "GroupRenamed":
    case "GroupDeleted":
    case "GroupMemberAdded":
    case "GroupMemberRemoved":
    case "GroupRoleChanged":
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
    case "AttachmentDeleted":
    case "WebhookCreated":
    case "WebhookUpdated":
    case "WebhookDisabled":
    case "WebhookDeleted":
    case "ShareLinkCreated":
    case "ShareLinkChanged":
    case "ShareLinkRevoked":
    case "ShareLinkViewed":
      return;
    case "PageMarkedTemplate":
    case "PageUnmarkedTemplate":
    case "PageWatched":
    case "PageUnwatched":
    case "FolderWatched":
    case "FolderUnwatched":
    case "NotificationSettingsChanged":
    case "VaultExported":
      return;
    default: {
      const unhandled: never = event;
      throw new Error(`no stored-bytes rule for ${JSON.stringify(unhandled)}`);
    }
  }
}
