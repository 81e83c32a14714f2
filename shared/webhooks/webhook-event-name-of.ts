// Which domain event each webhook event name stands for: events of pages, folders, comment threads, shares and
// images, each of which names the page or folder whose permission decides who may see it; and of groups, which
// their workspace's owner and admins see.
import type { DomainEvent } from "../events.ts";
import type { WebhookEventName } from "./webhook-event-names.ts";

/** The webhook name of a domain event, or null when webhooks do not carry it. */
export function webhookEventNameOf(event: DomainEvent): WebhookEventName | null {
  switch (event.type) {
    case "PageCreated":
      return "page.created";
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
      return "page.updated";
    case "PageMoved":
      return "page.moved";
    case "PageDeleted":
      return "page.deleted";
    case "PageRestored":
      return "page.restored";
    case "FolderCreated":
      return "folder.created";
    case "FolderRenamed":
    case "FolderIconChanged":
      return "folder.updated";
    case "FolderMoved":
      return "folder.moved";
    case "FolderDeleted":
      return "folder.deleted";
    case "CommentAdded":
      return "comment.created";
    case "CommentEdited":
      return "comment.updated";
    case "CommentDeleted":
      return "comment.deleted";
    case "ThreadResolved":
      return "thread.resolved";
    case "ThreadReopened":
      return "thread.reopened";
    case "AccessGranted":
    case "GroupAccessGranted":
      return "share.granted";
    case "AccessRevoked":
    case "GroupAccessRevoked":
      return "share.revoked";
    case "ImageUploaded":
      return "image.uploaded";
    case "ShareLinkCreated":
      return "share.link_created";
    case "ShareLinkChanged":
      return "share.link_updated";
    case "ShareLinkRevoked":
      return "share.link_revoked";
    case "GroupCreated":
      return "group.created";
    case "GroupRenamed":
    case "GroupRoleChanged":
      return "group.updated";
    case "GroupDeleted":
      return "group.deleted";
    case "GroupMemberAdded":
      return "group.member_added";
    case "GroupMemberRemoved":
      return "group.member_removed";
    default:
      return null;
  }
}
