// What a history entry changed, as the read model stores it (a grantee by id) and as a client is shown it (a
// grantee with their name, an actor with the token they acted through). describe-history.ts makes them.
import { z } from "zod";

const userRefSchema = z.object({ id: z.string(), name: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;
/** Who made a change: the user, and the API token they acted through when it was one (absent for a browser session). */
export const actorRefSchema = userRefSchema.extend({
  token: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type ActorRef = z.infer<typeof actorRefSchema>;

const contentChangeSchema = z.object({
  sizeBefore: z.number().int(),
  sizeAfter: z.number().int(),
  linesAdded: z.number().int(),
  linesRemoved: z.number().int(),
});
const nullableText = z.string().nullable();

/** The changes that name no user: stored and shown alike. */
const plainChanges = [
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
  /** A public share link created, changed or revoked: its settings, never its secret or password. */
  z.object({
    kind: z.literal("share_link"),
    action: z.enum(["created", "changed"]),
    linkId: z.string(),
    expiresAt: nullableText,
    passwordProtected: z.boolean(),
    allowIndexing: z.boolean(),
  }),
  z.object({ kind: z.literal("share_link_revoked"), linkId: z.string() }),
  /** A grant to a group, or its revocation: the group by id only, never its name or its members. */
  z.object({
    kind: z.literal("group_grant"),
    groupId: z.string(),
    permission: z.string(),
    previousPermission: nullableText,
  }),
  z.object({ kind: z.literal("group_revoke"), groupId: z.string(), previousPermission: nullableText }),
  /** A group created, renamed, deleted, a member added or removed, its workspace role changed: ids, never its name. */
  z.object({
    kind: z.literal("group"),
    groupId: z.string(),
    action: z.enum(["created", "renamed", "deleted", "member_added", "member_removed", "role_changed"]),
    /** The member added or removed (null for the other actions). */
    memberId: nullableText,
    /** The group's workspace role after a role change (null: none, or another action). */
    role: nullableText,
  }),
  z.object({
    kind: z.literal("attachment"),
    attachmentId: z.string(),
    action: z.enum(["uploaded", "replaced", "deleted"]),
    filename: z.string(),
  }),
  /** Marked as a template, or no longer one. */
  z.object({ kind: z.literal("template"), isTemplate: z.boolean() }),
  z.object({
    kind: z.literal("thread"),
    threadId: z.string(),
    action: z.enum(["opened", "comment_added", "comment_edited", "comment_deleted", "resolved", "reopened"]),
    commentId: nullableText,
  }),
] as const;

const grantShape = {
  kind: z.literal("grant"),
  permission: z.string(),
  previousPermission: nullableText,
  viaInvitation: z.boolean(),
};
const revokeShape = { kind: z.literal("revoke"), previousPermission: nullableText };
/** Someone started or stopped watching the entity (shown to those who may share it). */
const watchShape = { kind: z.literal("watch"), watching: z.boolean() };

/** A change as the history read model keeps it: a grantee by id only. */
export const storedChangeSchema = z.discriminatedUnion("kind", [
  ...plainChanges,
  z.object({ ...grantShape, userId: z.string() }),
  z.object({ ...revokeShape, userId: z.string() }),
  z.object({ ...watchShape, userId: z.string() }),
]);
export type StoredChange = z.infer<typeof storedChangeSchema>;

/** A change as a client sees it: a grantee with their name. */
export const changeSchema = z.discriminatedUnion("kind", [
  ...plainChanges,
  z.object({ ...grantShape, user: userRefSchema }),
  z.object({ ...revokeShape, user: userRefSchema }),
  z.object({ ...watchShape, user: userRefSchema }),
]);
export type Change = z.infer<typeof changeSchema>;

/** What the projector stores beside an entry. */
export interface Summary {
  readonly change: StoredChange;
  /** A grant or revocation: shown only to those who may share the entity. */
  readonly sharing: boolean;
}
