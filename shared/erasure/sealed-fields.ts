// Which fields of which events hold personal data, and whose key seals them: a user's email, name and picture,
// and what they typed into their tokens and webhooks, under the user's key; an invitation's address under the
// address's own key (an address may have no account); the answer recorded for an Idempotency-Key under its
// caller's key (or the page's it wrote); a page's and a folder's content under the item's own key
// (sealed-content.ts). What a field reads as once its key is destroyed is an explicit "erased" value of the
// field's own type (erased-values.ts), so every schema still holds. Pure.
import type { EventMetadata } from "../event-store/event-store.port.ts";
import {
  ERASED_APP_NAME,
  ERASED_EMAIL,
  ERASED_GROUP_NAME,
  ERASED_TOKEN_NAME,
  ERASED_USER_NAME,
  ERASED_WEBHOOK_URL,
} from "./erased-values.ts";
import { subjects } from "./key-store.port.ts";
import { DEFAULT_DELIVERY_SETTINGS } from "../notifications/notification-kinds.ts";
import { contentSealingRules, idempotentAnswerSubject } from "./sealed-content.ts";
import { NO_PERSONAL_DATA, type AppliedSealingRule, type SealingRules } from "./sealing-rule.ts";

const text = <const Field extends string, Erased>(field: Field, erased: Erased) =>
  ({ field, kind: "text", erased }) as const;
const ofUser = { named: "userId", by: subjects.user } as const;
const ofOwner = { named: "ownerId", by: subjects.user } as const;
/** Only a webhook's owner changes it, and the notifier disables it as its owner: the actor is the owner. */
const ofActor = (_data: unknown, metadata: EventMetadata): string => subjects.user(metadata.actorId);
const webhookSettings = [text("url", ERASED_WEBHOOK_URL), text("description", null)] as const;

/**
 * Every event type's decision: a rule, or that it carries no personal data (ids, hashes, permissions, times,
 * counts). A new event type compiles only once it is added here (or to sealed-content.ts).
 */
export const sealingRules: SealingRules = {
  UserRegistered: {
    subject: ofUser,
    fields: [text("email", ERASED_EMAIL), text("name", ERASED_USER_NAME), text("image", null)],
  },
  UserProfileChanged: { subject: ofUser, fields: [text("name", ERASED_USER_NAME), text("image", null)] },
  UserErasureStarted: NO_PERSONAL_DATA,
  UserErased: NO_PERSONAL_DATA,
  EmailReserved: { subject: ofUser, fields: [text("email", ERASED_EMAIL)] },
  EmailReleased: NO_PERSONAL_DATA,
  InvitationQueued: {
    subject: { named: "email", by: (email, addressHash) => subjects.address(addressHash(email)) },
    fields: [text("email", ERASED_EMAIL)],
  },
  InvitationPermissionChanged: NO_PERSONAL_DATA,
  InvitationResent: NO_PERSONAL_DATA,
  InvitationAccepted: NO_PERSONAL_DATA,
  InvitationExpired: NO_PERSONAL_DATA,
  InvitationCancelled: NO_PERSONAL_DATA,
  InvitationDelivered: NO_PERSONAL_DATA,
  InvitationDeliveryStarted: NO_PERSONAL_DATA,
  InvitationDeliveryFailed: NO_PERSONAL_DATA,
  InvitationAddressErased: NO_PERSONAL_DATA,
  InvitationSlotTaken: NO_PERSONAL_DATA,
  IdempotencyKeyClaimed: NO_PERSONAL_DATA,
  // A recorded answer may name addresses (a share's invitee) or the caller's own profile: under the caller's key,
  // unless it holds a page's or folder's content (sealed-content.ts).
  IdempotentRequestCompleted: {
    subject: (data, metadata) => idempotentAnswerSubject(data, metadata),
    fields: [{ field: "body", kind: "json", erased: null }],
  },
  IdempotencyKeyReleased: NO_PERSONAL_DATA,
  // What a user typed into records of their own: a token's name; a webhook's URL and description, and why it was
  // disabled (a failed delivery's error names the URL's host).
  TokenCreated: { subject: ofUser, fields: [text("name", ERASED_TOKEN_NAME)] },
  TokenUsed: NO_PERSONAL_DATA,
  TokenRevoked: NO_PERSONAL_DATA,
  // Which apps a person authorized: the client's name, home page and redirect host, under the user's key.
  AppAuthorized: {
    subject: ofUser,
    fields: [text("clientName", ERASED_APP_NAME), text("clientUri", null), text("redirectHost", "")],
  },
  AppRevoked: NO_PERSONAL_DATA,
  OAuthClientRegistered: NO_PERSONAL_DATA,
  WebhookCreated: { subject: ofOwner, fields: webhookSettings },
  WebhookUpdated: { subject: ofActor, fields: webhookSettings },
  WebhookDisabled: { subject: ofActor, fields: [text("reason", "")] },
  WebhookDeleted: NO_PERSONAL_DATA,
  AccessGranted: NO_PERSONAL_DATA,
  AccessRevoked: NO_PERSONAL_DATA,
  WorkspaceMemberAdded: NO_PERSONAL_DATA,
  WorkspaceMemberRoleChanged: NO_PERSONAL_DATA,
  WorkspaceMemberRemoved: NO_PERSONAL_DATA,
  ShareLinkCreated: NO_PERSONAL_DATA,
  ShareLinkChanged: NO_PERSONAL_DATA,
  ShareLinkRevoked: NO_PERSONAL_DATA,
  ShareLinkViewed: NO_PERSONAL_DATA,
  VaultExported: NO_PERSONAL_DATA,
  KeyStoreBound: NO_PERSONAL_DATA,
  SignInLinkUsed: NO_PERSONAL_DATA,
  // A group's name is what the workspace owner typed: under the owner's key. Member ids are ids, not personal data.
  GroupCreated: { subject: ofOwner, fields: [text("name", ERASED_GROUP_NAME)] },
  GroupRenamed: { subject: ofOwner, fields: [text("name", ERASED_GROUP_NAME)] },
  GroupDeleted: NO_PERSONAL_DATA,
  GroupMemberAdded: NO_PERSONAL_DATA,
  GroupMemberRemoved: NO_PERSONAL_DATA,
  GroupRoleChanged: NO_PERSONAL_DATA,
  GroupAccessGranted: NO_PERSONAL_DATA,
  GroupAccessRevoked: NO_PERSONAL_DATA,
  // Marking a page as a template names only the page.
  PageMarkedTemplate: NO_PERSONAL_DATA,
  PageUnmarkedTemplate: NO_PERSONAL_DATA,
  // Who watches what: ids only (the ids of a user and a page or folder are not personal data in this log).
  PageWatched: NO_PERSONAL_DATA,
  PageUnwatched: NO_PERSONAL_DATA,
  FolderWatched: NO_PERSONAL_DATA,
  FolderUnwatched: NO_PERSONAL_DATA,
  // A user's notification settings, how a person wants to be reached included, are theirs: sealed under their key,
  // read as the defaults once erased.
  NotificationSettingsChanged: {
    subject: ofUser,
    fields: [
      { field: "autoWatch", kind: "json", erased: true },
      { field: "delivery", kind: "json", erased: DEFAULT_DELIVERY_SETTINGS },
    ],
  },
  // Which notifications a user read: their ids and a position only.
  NotificationsRead: NO_PERSONAL_DATA,
  // What the notifier mailed: ids, a kind, a day and times; the mail's words and address are never recorded.
  NotificationMailed: NO_PERSONAL_DATA,
  NotificationDigestStarted: NO_PERSONAL_DATA,
  NotificationDigestMailed: NO_PERSONAL_DATA,
  ...contentSealingRules,
};

const applied: ReadonlyMap<string, AppliedSealingRule> = new Map(
  Object.entries(sealingRules).flatMap(([type, decision]): [string, AppliedSealingRule][] =>
    decision === NO_PERSONAL_DATA ? [] : [[type, decision]],
  ),
);

/** The rule an event type declares, as the sealing store applies it; null for one that carries no personal data. */
export function sealingRuleOf(type: string): AppliedSealingRule | null {
  return applied.get(type) ?? null;
}

/**
 * Stream names that would hold an address: `email-<address>` (one account per address) and
 * `invitation-slot-<target type>-<target id>-<address>`. Each is stored under the address's keyed hash instead.
 * Answers the stored name, or null when the name holds no address.
 */
export function hashedStreamName(stream: string, addressHash: (address: string) => string): string | null {
  const reservation = /^email-(.+@.+)$/.exec(stream);
  if (reservation?.[1]) return `email-${addressHash(reservation[1])}`;
  const slot = /^(invitation-slot-[a-z]+-[0-9a-f-]{36})-(.+@.+)$/.exec(stream);
  if (slot?.[1] && slot[2]) return `${slot[1]}-${addressHash(slot[2])}`;
  return null;
}
