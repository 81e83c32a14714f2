// What each history entry changed, in terms a client can show: old and new title, a content change with its
// size and line summary, a grant. Summarised once, when the projector records the entry (against the entity's
// fold: what its entries so far leave it as), and stored; named when read, since a user's name may change
// after the fact. Pure. No summary carries an email, a secret or a hash.
import { ERASED_USER_NAME } from "../erasure/erased-values.ts";
import type { GrantablePermission } from "../kernel/permissions.ts";
import type { ActorRef, Change, StoredChange, Summary, UserRef } from "./change-summary.ts";
import type { HistoryChange, HistoryEntry } from "./history.view.ts";
import { summariseLines } from "./line-diff.ts";

export interface DescribedEntry {
  readonly entry: HistoryChange;
  readonly actor: ActorRef;
  readonly changes: Change;
}

/** What an entity's entries so far leave it as: what the next change is summarised against. */
export interface Fold {
  title: string | null;
  icon: string | null;
  markdown: string | null;
  /** The folder the entity sits in (null at the root), as far as its entries so far say. */
  parentId: string | null;
  readonly grants: Map<string, GrantablePermission>;
}

export const emptyFold = (): Fold => ({ title: null, icon: null, markdown: null, parentId: null, grants: new Map() });

const size = (text: string): number => Buffer.byteLength(text, "utf8");

function contentChange(before: string | null, after: string) {
  return {
    sizeBefore: before === null ? 0 : size(before),
    sizeAfter: size(after),
    ...summariseLines(before ?? "", after),
  };
}

/** The users a change names (its actor, a grantee), to be loaded before naming it. */
export function usersNamedBy(changes: readonly Pick<HistoryChange, "actorId" | "change">[]): string[] {
  const ids = new Set<string>();
  for (const { actorId, change } of changes) {
    ids.add(actorId);
    if (change.kind === "grant" || change.kind === "revoke" || change.kind === "watch") ids.add(change.userId);
  }
  return [...ids];
}

const plain = (change: StoredChange): Summary => ({ change, sharing: false });

/** Sets one of the fold's fields to what an entry says, answering what it held before. */
function advance<K extends "title" | "icon" | "parentId">(fold: Fold, key: K, value: Fold[K]): Fold[K] {
  const before = fold[key];
  fold[key] = value;
  return before;
}

/**
 * What one entry changed, against its entity's fold (which it then advances). Every event type the history
 * projection records has a case; any other is a programming error.
 */
export function summarise(entry: HistoryEntry, fold: Fold): Summary {
  const { event } = entry;
  switch (event.type) {
    case "PageCreated": {
      const { title, icon, parentId, markdown, duplicatedFrom } = event.data;
      Object.assign(fold, { title, icon, markdown, parentId });
      const copied = duplicatedFrom === undefined ? {} : { duplicatedFrom };
      return plain({ kind: "created", title, icon, parentId, size: size(markdown), ...copied });
    }
    case "FolderCreated": {
      const { name, icon, parentId } = event.data;
      Object.assign(fold, { title: name, icon, parentId });
      return plain({ kind: "created", title: name, icon, parentId, size: 0 });
    }
    case "PageRenamed": {
      const before = advance(fold, "title", event.data.title);
      return plain({ kind: "title", from: event.data.previousTitle ?? before, to: event.data.title });
    }
    case "PageIconChanged":
    case "FolderIconChanged":
      return plain({ kind: "icon", from: advance(fold, "icon", event.data.icon), to: event.data.icon });
    case "PageContentReplaced": {
      const change = contentChange(fold.markdown, event.data.markdown);
      fold.markdown = event.data.markdown;
      return plain({ kind: "content", ...change });
    }
    case "PageDeleted":
    case "FolderDeleted":
      return plain({ kind: "deleted" });
    case "PageUndeleted":
    case "FolderUndeleted":
      fold.parentId = event.data.parentId;
      return plain({ kind: "undeleted", parentId: event.data.parentId });
    case "FolderRenamed":
      return plain({ kind: "title", from: advance(fold, "title", event.data.name), to: event.data.name });
    case "PageMoved":
    case "FolderMoved":
      return plain({ kind: "moved", from: advance(fold, "parentId", event.data.parentId), to: event.data.parentId });
    case "PageRestored": {
      const { title, icon, markdown, restoredFrom } = event.data;
      const change: StoredChange = {
        kind: "restored",
        restoredFrom: String(restoredFrom),
        title: { from: fold.title, to: title },
        icon: { from: fold.icon, to: icon },
        content: contentChange(fold.markdown, markdown),
      };
      Object.assign(fold, { title, icon, markdown });
      return plain(change);
    }
    case "AccessGranted": {
      const { userId, permission, invitationId } = event.data;
      const previousPermission = fold.grants.get(userId) ?? null;
      fold.grants.set(userId, permission);
      return {
        change: { kind: "grant", userId, permission, previousPermission, viaInvitation: invitationId !== null },
        sharing: true,
      };
    }
    case "AccessRevoked": {
      const { userId } = event.data;
      const previousPermission = fold.grants.get(userId) ?? null;
      fold.grants.delete(userId);
      return { change: { kind: "revoke", userId, previousPermission }, sharing: true };
    }
    // A group's grant is folded beside the people's under a key no user id takes.
    case "GroupAccessGranted": {
      const { groupId, permission } = event.data;
      const previousPermission = fold.grants.get(`group:${groupId}`) ?? null;
      fold.grants.set(`group:${groupId}`, permission);
      return { change: { kind: "group_grant", groupId, permission, previousPermission }, sharing: true };
    }
    case "GroupAccessRevoked": {
      const { groupId } = event.data;
      const previousPermission = fold.grants.get(`group:${groupId}`) ?? null;
      fold.grants.delete(`group:${groupId}`);
      return { change: { kind: "group_revoke", groupId, previousPermission }, sharing: true };
    }
    case "ShareLinkCreated":
    case "ShareLinkChanged": {
      const { linkId, expiresAt, passwordHash, allowIndexing } = event.data;
      const action = event.type === "ShareLinkCreated" ? "created" : "changed";
      return {
        change: {
          kind: "share_link",
          action,
          linkId,
          expiresAt,
          passwordProtected: passwordHash !== null,
          allowIndexing,
        },
        sharing: true,
      };
    }
    case "ShareLinkRevoked":
      return { change: { kind: "share_link_revoked", linkId: event.data.linkId }, sharing: true };
    case "AttachmentUploaded":
      return plain({
        kind: "attachment",
        attachmentId: event.data.attachmentId,
        action: "uploaded",
        filename: event.data.filename,
      });
    case "AttachmentReplaced":
      return plain({
        kind: "attachment",
        attachmentId: event.data.attachmentId,
        action: "replaced",
        filename: event.data.filename,
      });
    case "AttachmentDeleted":
      return plain({
        kind: "attachment",
        attachmentId: event.data.attachmentId,
        action: "deleted",
        filename: event.data.filename,
      });
    case "ThreadOpened":
      return plain({ kind: "thread", threadId: event.data.threadId, action: "opened", commentId: null });
    case "CommentAdded":
      return plain({
        kind: "thread",
        threadId: event.data.threadId,
        action: "comment_added",
        commentId: event.data.commentId,
      });
    case "CommentEdited":
      return plain({
        kind: "thread",
        threadId: event.data.threadId,
        action: "comment_edited",
        commentId: event.data.commentId,
      });
    case "CommentDeleted":
      return plain({
        kind: "thread",
        threadId: event.data.threadId,
        action: "comment_deleted",
        commentId: event.data.commentId,
      });
    case "ThreadResolved":
      return plain({ kind: "thread", threadId: event.data.threadId, action: "resolved", commentId: null });
    case "ThreadReopened":
      return plain({ kind: "thread", threadId: event.data.threadId, action: "reopened", commentId: null });
    case "PageMarkedTemplate":
    case "PageUnmarkedTemplate":
      return plain({ kind: "template", isTemplate: event.type === "PageMarkedTemplate" });
    // Who watches an entity is shown to those who may share it, as its grants are.
    case "PageWatched":
    case "FolderWatched":
      return { change: { kind: "watch", watching: true, userId: event.data.userId }, sharing: true };
    case "PageUnwatched":
    case "FolderUnwatched":
      return { change: { kind: "watch", watching: false, userId: event.data.userId }, sharing: true };
    case "GroupCreated":
    case "GroupRenamed":
    case "GroupDeleted": {
      const action = event.type === "GroupCreated" ? "created" : event.type === "GroupRenamed" ? "renamed" : "deleted";
      return plain({ kind: "group", groupId: event.data.groupId, action, memberId: null, role: null });
    }
    case "GroupMemberAdded":
    case "GroupMemberRemoved": {
      const action = event.type === "GroupMemberAdded" ? "member_added" : "member_removed";
      const { groupId, memberId } = event.data;
      return plain({ kind: "group", groupId, action, memberId, role: null });
    }
    case "GroupRoleChanged":
      return plain({
        kind: "group",
        groupId: event.data.groupId,
        action: "role_changed",
        memberId: null,
        role: event.data.role,
      });
    default:
      throw new Error(`history: ${event.type} is recorded in no entity's history`);
  }
}

/** A stored change as a client sees it: users named through `names` (loaded once per page of changes). */
export function describeChange(
  entry: HistoryChange,
  names: ReadonlyMap<string, string>,
  tokenNames: ReadonlyMap<string, string> = new Map(),
): DescribedEntry {
  const userRef = (id: string): UserRef => ({ id, name: names.get(id) ?? ERASED_USER_NAME });
  const { change } = entry;
  let changes: Change;
  if (change.kind === "grant") {
    const { userId, ...rest } = change;
    changes = { ...rest, user: userRef(userId) };
  } else if (change.kind === "revoke") {
    const { userId, ...rest } = change;
    changes = { ...rest, user: userRef(userId) };
  } else if (change.kind === "watch") {
    const { userId, ...rest } = change;
    changes = { ...rest, user: userRef(userId) };
  } else {
    changes = change;
  }
  const token = entry.tokenId ? { id: entry.tokenId, name: tokenNames.get(entry.tokenId) ?? "Unknown token" } : null;
  return { entry, actor: token ? { ...userRef(entry.actorId), token } : userRef(entry.actorId), changes };
}

/** An entry with its summary: what the history read model stores for it. */
export function changeOf(entry: HistoryEntry, summary: Summary): HistoryChange {
  const { position, entityKind, entityId, access, occurredAt, actorId, tokenId, correlationId, event } = entry;
  return {
    position,
    entityKind,
    entityId,
    access,
    occurredAt,
    actorId,
    tokenId,
    correlationId,
    type: event.type,
    ...summary,
  };
}

/** Summarises entries oldest first, each entity's against its entries before (the audit trail's reading). */
export function summariseAll(entries: readonly HistoryEntry[]): HistoryChange[] {
  const folds = new Map<string, Fold>();
  return entries.map((entry) => {
    let fold = folds.get(entry.entityId);
    if (!fold) {
      fold = emptyFold();
      folds.set(entry.entityId, fold);
    }
    return changeOf(entry, summarise(entry, fold));
  });
}
