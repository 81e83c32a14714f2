// Which fields of which events hold personal data, and whose key seals them: a user's email, name and picture,
// and what they typed into their tokens and webhooks, under the user's key; an invitation's address under the
// address's own key (an address may have no account); the answer recorded for an Idempotency-Key under its
// caller's key (or the page's it wrote); a page's and a folder's content under the item's own key
// (sealed-content.ts). What a field reads as once its key is destroyed is an explicit "erased" value of the
// field's own type, so every schema still holds. Pure.
import type { EventMetadata } from "../event-store/event-store.port.ts";
import { subjects } from "./key-store.port.ts";
import { contentSealingRules, idempotentAnswerSubject } from "./sealed-content.ts";
import type { SealedField, SealingRule } from "./sealing-rule.ts";


/** The name an erased user is shown by. */
export const ERASED_USER_NAME = "Erased user";
/** An erased email address: empty, which no real address is. */
export const ERASED_EMAIL = "";
/** What an erased API token's name reads as. */
const ERASED_TOKEN_NAME = "Erased token";
/** An erased webhook's URL: still a URL, on a name that never resolves (RFC 2606), so nothing is sent to it. */
const ERASED_WEBHOOK_URL = "https://erased.invalid/";

const text = (field: string, erased: unknown): SealedField => ({ field, kind: "text", erased });
const stringField = (data: Readonly<Record<string, unknown>>, field: string): string | null => {
  const value = data[field];
  return typeof value === "string" && value.length > 0 ? value : null;
};
const userSubject = (data: Readonly<Record<string, unknown>>): string | null => {
  const userId = stringField(data, "userId");
  return userId === null ? null : subjects.user(userId);
};
const ownerSubject = (data: Readonly<Record<string, unknown>>): string | null => {
  const ownerId = stringField(data, "ownerId");
  return ownerId === null ? null : subjects.user(ownerId);
};
/** Only a webhook's owner changes it, and the notifier disables it as its owner: the actor is the owner. */
const actorSubject = (_data: Readonly<Record<string, unknown>>, metadata: EventMetadata): string => subjects.user(metadata.actorId);
const webhookSettings = [text("url", ERASED_WEBHOOK_URL), text("description", null)];

export const sealingRules: Readonly<Record<string, SealingRule>> = {
  UserRegistered: { subject: userSubject, fields: [text("email", ERASED_EMAIL), text("name", ERASED_USER_NAME), text("image", null)] },
  UserProfileChanged: { subject: userSubject, fields: [text("name", ERASED_USER_NAME), text("image", null)] },
  EmailReserved: { subject: userSubject, fields: [text("email", ERASED_EMAIL)] },
  InvitationQueued: {
    subject: (data, _metadata, addressHash) => {
      const email = stringField(data, "email");
      return email === null ? null : subjects.address(addressHash(email));
    },
    fields: [text("email", ERASED_EMAIL)],
  },
  // A recorded answer may name addresses (a share's invitee) or the caller's own profile: under the caller's key,
  // unless it holds a page's or folder's content (sealed-content.ts).
  IdempotentRequestCompleted: { subject: (data, metadata) => idempotentAnswerSubject(data, metadata), fields: [{ field: "body", kind: "json", erased: null }] },
  // What a user typed into records of their own: a token's name; a webhook's URL and description, and why it was
  // disabled (a failed delivery's error names the URL's host).
  TokenCreated: { subject: userSubject, fields: [text("name", ERASED_TOKEN_NAME)] },
  WebhookCreated: { subject: ownerSubject, fields: webhookSettings },
  WebhookUpdated: { subject: actorSubject, fields: webhookSettings },
  WebhookDisabled: { subject: actorSubject, fields: [text("reason", "")] },
  ...contentSealingRules,
};

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
