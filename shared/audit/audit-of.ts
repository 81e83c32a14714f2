// Which audit entry a domain event makes, if any, and which workspace's trail it belongs to. The switch is
// exhaustive: a new event type does not compile until it is placed in the trail or left out here. Every kind but
// `write` is recorded whoever acted and however; a `write` is recorded only when the change was made through an
// API token or an app (the event's metadata names it).
import type { DomainEvent, DomainEventType } from "../events.ts";
import type { AuditDetail, AuditKind, AuditTarget } from "./audit-entry.ts";

/** Where an entry is filed: a workspace (its owner's id) named outright, or found from what the event touches. */
export type AuditPlace =
  | { readonly workspace: string }
  | { readonly page: string }
  | { readonly folder: string }
  | { readonly thread: string }
  /** The workspace of the target's first entry (a token's, an app's, a webhook's, an invitation's). */
  | { readonly recorded: AuditTarget }
  /** The actor's own workspace: what they changed for themselves (watches, notification settings). */
  | { readonly actor: true };

export type AuditFact = {
  [K in AuditKind]: { kind: K; target: AuditTarget; detail: AuditDetail<K>; place: AuditPlace };
}[AuditKind];

const write = (change: DomainEventType, target: AuditTarget, place: AuditPlace): AuditFact => ({
  kind: "write",
  target,
  detail: { change },
  place,
});
const page = (id: string): AuditTarget => ({ type: "page", id });
const folder = (id: string): AuditTarget => ({ type: "folder", id });
const thread = (id: string): AuditTarget => ({ type: "thread", id });
/** Events recorded before they carried their owner are placed by what they touch. */
const ownedBy = (ownerId: string | undefined, otherwise: AuditPlace): AuditPlace =>
  ownerId ? { workspace: ownerId } : otherwise;
const entity = (type: "page" | "folder", id: string): AuditPlace => (type === "page" ? { page: id } : { folder: id });

export function auditOf(event: DomainEvent): AuditFact | null {
  switch (event.type) {
    case "TokenCreated": {
      const { tokenId, userId, scopes, expiresAt } = event.data;
      const target: AuditTarget = { type: "token", id: tokenId };
      return { kind: "token.created", target, detail: { scopes, expiresAt }, place: { workspace: userId } };
    }
    case "TokenRevoked": {
      const target: AuditTarget = { type: "token", id: event.data.tokenId };
      return { kind: "token.revoked", target, detail: {}, place: { recorded: target } };
    }
    case "AppAuthorized": {
      const { appId, userId, scopes } = event.data;
      const target: AuditTarget = { type: "app", id: appId };
      return { kind: "app.authorized", target, detail: { scopes }, place: { workspace: userId } };
    }
    case "AppRevoked": {
      const target: AuditTarget = { type: "app", id: event.data.appId };
      return { kind: "app.revoked", target, detail: { by: event.data.by }, place: { recorded: target } };
    }
    case "GroupCreated":
    case "GroupRenamed":
    case "GroupDeleted": {
      const kind =
        event.type === "GroupCreated"
          ? "group.created"
          : event.type === "GroupRenamed"
            ? "group.renamed"
            : "group.deleted";
      const target: AuditTarget = { type: "group", id: event.data.groupId };
      return { kind, target, detail: {}, place: { workspace: event.data.ownerId } };
    }
    case "GroupMemberAdded":
    case "GroupMemberRemoved": {
      const { groupId, ownerId, memberId } = event.data;
      const kind = event.type === "GroupMemberAdded" ? "group.member_added" : "group.member_removed";
      return { kind, target: { type: "group", id: groupId }, detail: { memberId }, place: { workspace: ownerId } };
    }
    case "GroupRoleChanged": {
      const { groupId, ownerId, role } = event.data;
      const target: AuditTarget = { type: "group", id: groupId };
      return { kind: "group.role_changed", target, detail: { role }, place: { workspace: ownerId } };
    }
    case "WorkspaceMemberAdded":
    case "WorkspaceMemberRoleChanged": {
      const { ownerId, memberId, role } = event.data;
      const kind = event.type === "WorkspaceMemberAdded" ? "member.added" : "member.role_changed";
      return { kind, target: { type: "user", id: memberId }, detail: { role }, place: { workspace: ownerId } };
    }
    case "WorkspaceMemberRemoved": {
      const { ownerId, memberId, removedBy } = event.data;
      // A member leaves a workspace only when their account is erased (erase-user.ts).
      const kind = removedBy === memberId ? "account.erased" : "member.removed";
      return { kind, target: { type: "user", id: memberId }, detail: {}, place: { workspace: ownerId } };
    }
    case "UserErased":
      return {
        kind: "account.erased",
        target: { type: "user", id: event.data.userId },
        detail: {},
        place: { workspace: event.data.userId },
      };
    case "AccessGranted":
    case "GroupAccessGranted": {
      const { entityType, entityId, permission } = event.data;
      const grantee =
        event.type === "AccessGranted"
          ? { type: "user" as const, id: event.data.userId }
          : { type: "group" as const, id: event.data.groupId };
      const target: AuditTarget = { type: entityType, id: entityId };
      return { kind: "grant.given", target, detail: { grantee, permission }, place: entity(entityType, entityId) };
    }
    case "AccessRevoked":
    case "GroupAccessRevoked": {
      const { entityType, entityId } = event.data;
      const grantee =
        event.type === "AccessRevoked"
          ? { type: "user" as const, id: event.data.userId }
          : { type: "group" as const, id: event.data.groupId };
      const target: AuditTarget = { type: entityType, id: entityId };
      return { kind: "grant.taken", target, detail: { grantee }, place: entity(entityType, entityId) };
    }
    case "ShareLinkCreated":
    case "ShareLinkChanged": {
      const { linkId, entityType, entityId, expiresAt, passwordHash, allowIndexing } = event.data;
      const kind = event.type === "ShareLinkCreated" ? "share_link.created" : "share_link.changed";
      const detail = {
        entity: { type: entityType, id: entityId },
        expiresAt,
        passwordProtected: passwordHash !== null,
        allowIndexing,
      };
      return { kind, target: { type: "share_link", id: linkId }, detail, place: entity(entityType, entityId) };
    }
    case "ShareLinkRevoked": {
      const { linkId, entityType, entityId } = event.data;
      const detail = { entity: { type: entityType, id: entityId } };
      const target: AuditTarget = { type: "share_link", id: linkId };
      return { kind: "share_link.revoked", target, detail, place: entity(entityType, entityId) };
    }
    case "WebhookCreated": {
      const { webhookId, ownerId, folderId, events } = event.data;
      const target: AuditTarget = { type: "webhook", id: webhookId };
      return { kind: "webhook.created", target, detail: { folderId, events }, place: { workspace: ownerId } };
    }
    case "WebhookUpdated": {
      const { webhookId, events, active } = event.data;
      const target: AuditTarget = { type: "webhook", id: webhookId };
      return { kind: "webhook.updated", target, detail: { events, active }, place: { recorded: target } };
    }
    case "WebhookDisabled":
    case "WebhookDeleted": {
      const target: AuditTarget = { type: "webhook", id: event.data.webhookId };
      const kind = event.type === "WebhookDisabled" ? "webhook.disabled" : "webhook.deleted";
      return { kind, target, detail: {}, place: { recorded: target } };
    }
    case "PageCreated":
    case "PageDeleted":
    case "PageUndeleted":
      return write(event.type, page(event.data.pageId), ownedBy(event.data.ownerId, { page: event.data.pageId }));
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
    case "PageRestored":
    case "PageMoved":
    case "PagePurged":
    case "PageMarkedTemplate":
    case "PageUnmarkedTemplate":
    case "ImageUploaded":
    case "AttachmentUploaded":
    case "AttachmentReplaced":
    case "AttachmentDeleted":
      return write(event.type, page(event.data.pageId), { page: event.data.pageId });
    case "FolderCreated":
    case "FolderDeleted":
    case "FolderUndeleted":
    case "FolderMoved":
      return write(
        event.type,
        folder(event.data.folderId),
        ownedBy(event.data.ownerId, { folder: event.data.folderId }),
      );
    case "FolderRenamed":
    case "FolderIconChanged":
    case "FolderPurged":
      return write(event.type, folder(event.data.folderId), { folder: event.data.folderId });
    case "ThreadOpened":
    case "CommentAdded":
    case "CommentEdited":
      return write(
        event.type,
        thread(event.data.threadId),
        event.data.pageId ? { page: event.data.pageId } : { thread: event.data.threadId },
      );
    case "CommentDeleted":
    case "ThreadResolved":
    case "ThreadReopened":
      return write(event.type, thread(event.data.threadId), { thread: event.data.threadId });
    case "InvitationQueued": {
      const target: AuditTarget = { type: "invitation", id: event.data.invitationId };
      const { access } = event.data;
      const place: AuditPlace =
        access.targetType === "workspace"
          ? { workspace: access.targetId }
          : access.targetType === "group"
            ? { actor: true }
            : entity(access.targetType, access.targetId);
      return write(event.type, target, place);
    }
    case "InvitationPermissionChanged":
    case "InvitationResent":
    case "InvitationCancelled": {
      const target: AuditTarget = { type: "invitation", id: event.data.invitationId };
      return write(event.type, target, { recorded: target });
    }
    case "PageWatched":
    case "PageUnwatched":
      return write(event.type, page(event.data.pageId), { actor: true });
    case "FolderWatched":
    case "FolderUnwatched":
      return write(event.type, folder(event.data.folderId), { actor: true });
    case "NotificationSettingsChanged":
    case "NotificationsRead":
      return write(event.type, { type: "user", id: event.data.userId }, { actor: true });
    case "VaultExported": {
      const { userId, folderId } = event.data;
      return folderId === null
        ? { kind: "export", target: { type: "workspace", id: userId }, detail: {}, place: { workspace: userId } }
        : { kind: "export", target: { type: "folder", id: folderId }, detail: {}, place: { folder: folderId } };
    }
    // Bookkeeping and what no caller does through a credential: nothing to show in a workspace's trail.
    case "UserRegistered":
    case "UserProfileChanged":
    case "UserErasureStarted":
    case "EmailReserved":
    case "EmailReleased":
    case "TokenUsed":
    case "OAuthClientRegistered":
    case "ShareLinkViewed":
    case "InvitationAccepted":
    case "InvitationExpired":
    case "InvitationDelivered":
    case "InvitationDeliveryStarted":
    case "InvitationDeliveryFailed":
    case "InvitationAddressErased":
    case "InvitationSlotTaken":
    case "IdempotencyKeyClaimed":
    case "IdempotentRequestCompleted":
    case "IdempotencyKeyReleased":
    case "KeyStoreBound":
    case "SignInLinkUsed":
    case "NotificationMailed":
    case "NotificationDigestStarted":
    case "NotificationDigestMailed":
      return null;
    default: {
      const unhandled: never = event;
      throw new Error(`no audit rule for ${JSON.stringify(unhandled)}`);
    }
  }
}
