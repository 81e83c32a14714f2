// What each history entry changed, in terms a client can show: old and new title, a content change with its
// size and line summary, a grant. Pure: entries are folded oldest first so every change knows what it
// replaced; users are named through the map the caller loads. No entry carries an email, a secret or a hash.
import { z } from "zod";
import type { GrantablePermission } from "../kernel/permissions.ts";
import type { HistoryEntry } from "./history.view.ts";
import { summariseLines } from "./line-diff.ts";

export const userRefSchema = z.object({ id: z.string(), name: z.string() });
type UserRef = z.infer<typeof userRefSchema>;

const contentChangeSchema = z.object({ sizeBefore: z.number().int(), sizeAfter: z.number().int(), linesAdded: z.number().int(), linesRemoved: z.number().int() });
const nullableText = z.string().nullable();

export const changeSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("created"),
    title: z.string(),
    icon: nullableText,
    parentId: nullableText,
    size: z.number().int(),
    /** A duplicate's first entry: the id of the page it was copied from. */
    duplicatedFrom: z.string().optional(),
  }),
  z.object({ kind: z.literal("title"), from: nullableText, to: z.string() }),
  z.object({ kind: z.literal("icon"), from: nullableText, to: nullableText }),
  z.object({ kind: z.literal("content"), ...contentChangeSchema.shape }),
  z.object({ kind: z.literal("deleted") }),
  /** Back from the trash, into `parentId`. */
  z.object({ kind: z.literal("undeleted"), parentId: nullableText }),
  z.object({ kind: z.literal("moved"), from: nullableText, to: nullableText }),
  z.object({
    kind: z.literal("restored"),
    restoredFrom: z.string(),
    title: z.object({ from: nullableText, to: z.string() }),
    icon: z.object({ from: nullableText, to: nullableText }),
    content: contentChangeSchema,
  }),
  z.object({ kind: z.literal("grant"), user: userRefSchema, permission: z.string(), previousPermission: nullableText, viaInvitation: z.boolean() }),
  z.object({ kind: z.literal("revoke"), user: userRefSchema, previousPermission: nullableText }),
  z.object({ kind: z.literal("thread"), threadId: z.string(), action: z.enum(["opened", "comment_added", "comment_edited", "comment_deleted", "resolved", "reopened"]), commentId: nullableText }),
]);
export type Change = z.infer<typeof changeSchema>;

export interface DescribedEntry {
  readonly entry: HistoryEntry;
  readonly actor: UserRef;
  readonly changes: Change;
  /** A grant or revocation: shown only to those who may share the entity. */
  readonly sharing: boolean;
}

/** What an entity's entries so far leave it as: what the next change is described against. */
export interface Fold {
  title: string | null;
  icon: string | null;
  markdown: string | null;
  /** The folder the entity sits in (null at the root), as far as its entries so far say. */
  parentId: string | null;
  readonly grants: Map<string, GrantablePermission>;
}

export const emptyFold = (): Fold => ({ title: null, icon: null, markdown: null, parentId: null, grants: new Map() });

const size = (text: string): number => new TextEncoder().encode(text).length;

function contentChange(before: string | null, after: string) {
  return { sizeBefore: before === null ? 0 : size(before), sizeAfter: size(after), ...summariseLines(before ?? "", after) };
}

/** The users an entry names (its actor, a grantee), to be loaded before describing it. */
export function usersNamedBy(entries: readonly HistoryEntry[]): string[] {
  const ids = new Set<string>();
  for (const { actorId, event } of entries) {
    ids.add(actorId);
    if (event.type === "AccessGranted" || event.type === "AccessRevoked") ids.add(event.data.userId);
  }
  return [...ids];
}

function describeOne(entry: HistoryEntry, fold: Fold, userRef: (id: string) => UserRef): { changes: Change; sharing: boolean } | null {
  const { event } = entry;
  switch (event.type) {
    case "PageCreated": {
      const { title, icon, parentId, markdown, duplicatedFrom } = event.data;
      Object.assign(fold, { title, icon, markdown, parentId });
      const copied = duplicatedFrom === undefined ? {} : { duplicatedFrom };
      return { changes: { kind: "created", title, icon, parentId, size: size(markdown), ...copied }, sharing: false };
    }
    case "FolderCreated": {
      const { name, icon, parentId } = event.data;
      Object.assign(fold, { title: name, icon, parentId });
      return { changes: { kind: "created", title: name, icon, parentId, size: 0 }, sharing: false };
    }
    case "PageRenamed": {
      const from = event.data.previousTitle ?? fold.title;
      fold.title = event.data.title;
      return { changes: { kind: "title", from, to: event.data.title }, sharing: false };
    }
    case "PageIconChanged": {
      const from = fold.icon;
      fold.icon = event.data.icon;
      return { changes: { kind: "icon", from, to: event.data.icon }, sharing: false };
    }
    case "PageContentReplaced": {
      const changes: Change = { kind: "content", ...contentChange(fold.markdown, event.data.markdown) };
      fold.markdown = event.data.markdown;
      return { changes, sharing: false };
    }
    case "PageDeleted":
    case "FolderDeleted":
      return { changes: { kind: "deleted" }, sharing: false };
    case "PageUndeleted":
    case "FolderUndeleted":
      fold.parentId = event.data.parentId;
      return { changes: { kind: "undeleted", parentId: event.data.parentId }, sharing: false };
    case "FolderRenamed": {
      const from = fold.title;
      fold.title = event.data.name;
      return { changes: { kind: "title", from, to: event.data.name }, sharing: false };
    }
    case "FolderIconChanged": {
      const from = fold.icon;
      fold.icon = event.data.icon;
      return { changes: { kind: "icon", from, to: event.data.icon }, sharing: false };
    }
    case "PageMoved":
    case "FolderMoved": {
      const from = fold.parentId;
      fold.parentId = event.data.parentId;
      return { changes: { kind: "moved", from, to: event.data.parentId }, sharing: false };
    }
    case "PageRestored": {
      const { title, icon, markdown, restoredFrom } = event.data;
      const changes: Change = {
        kind: "restored",
        restoredFrom: String(restoredFrom),
        title: { from: fold.title, to: title },
        icon: { from: fold.icon, to: icon },
        content: contentChange(fold.markdown, markdown),
      };
      Object.assign(fold, { title, icon, markdown });
      return { changes, sharing: false };
    }
    case "AccessGranted": {
      const { userId, permission, invitationId } = event.data;
      const previousPermission = fold.grants.get(userId) ?? null;
      fold.grants.set(userId, permission);
      return { changes: { kind: "grant", user: userRef(userId), permission, previousPermission, viaInvitation: invitationId !== null }, sharing: true };
    }
    case "AccessRevoked": {
      const { userId } = event.data;
      const previousPermission = fold.grants.get(userId) ?? null;
      fold.grants.delete(userId);
      return { changes: { kind: "revoke", user: userRef(userId), previousPermission }, sharing: true };
    }
    case "ThreadOpened":
      return { changes: { kind: "thread", threadId: event.data.threadId, action: "opened", commentId: null }, sharing: false };
    case "CommentAdded":
      return { changes: { kind: "thread", threadId: event.data.threadId, action: "comment_added", commentId: event.data.commentId }, sharing: false };
    case "CommentEdited":
      return { changes: { kind: "thread", threadId: event.data.threadId, action: "comment_edited", commentId: event.data.commentId }, sharing: false };
    case "CommentDeleted":
      return { changes: { kind: "thread", threadId: event.data.threadId, action: "comment_deleted", commentId: event.data.commentId }, sharing: false };
    case "ThreadResolved":
      return { changes: { kind: "thread", threadId: event.data.threadId, action: "resolved", commentId: null }, sharing: false };
    case "ThreadReopened":
      return { changes: { kind: "thread", threadId: event.data.threadId, action: "reopened", commentId: null }, sharing: false };
    default:
      // Only events the history projection records reach here; a type it starts recording needs a case above.
      return null;
  }
}

/**
 * Describes one entry against its entity's fold (which it then advances); null for an entry with nothing to
 * show. Described against an empty fold, what the change replaced reads as null or empty.
 */
export function describeEntry(entry: HistoryEntry, fold: Fold, names: ReadonlyMap<string, string>): DescribedEntry | null {
  const userRef = (id: string): UserRef => ({ id, name: names.get(id) ?? "Unknown user" });
  const described = describeOne(entry, fold, userRef);
  return described ? { entry, actor: userRef(entry.actorId), ...described } : null;
}

/** Describes entries oldest first, each entity's changes against the entries of it before. */
export function describeHistory(entries: readonly HistoryEntry[], names: ReadonlyMap<string, string>, folds = new Map<string, Fold>()): DescribedEntry[] {
  return entries.flatMap((entry) => {
    let fold = folds.get(entry.entityId);
    if (!fold) {
      fold = emptyFold();
      folds.set(entry.entityId, fold);
    }
    const described = describeEntry(entry, fold, names);
    return described ? [described] : [];
  });
}
