// An invitation for an address without an account: queued for delivery (delivered by the notifier), resent at
// most once a minute while pending, and accepted when that address registers, or expired (7 days), or cancelled.
// Each queuing or resend is a delivery attempt, named by that event's id; the notifier starts an attempt at most
// once before it sends, so an attempt never becomes two emails, and ends it as delivered or failed.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { groupIdSchema, invitationIdSchema, userIdSchema, type InvitationId, type UserId } from "../kernel/ids.ts";
import { atLeast, grantablePermissionSchema, workspaceRoleSchema } from "../kernel/permissions.ts";
import { entityTypeSchema } from "./entity-access.decider.ts";
import { assertMayShare, type Actor } from "./share-rules.ts";
import { ERASED_EMAIL } from "../erasure/erased-values.ts";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const RESEND_INTERVAL_MS = 60 * 1000;

/** What accepting the invitation gives: a permission on a page or folder, a role in a workspace, or a group's membership. */
export const invitedAccessSchema = z.discriminatedUnion("targetType", [
  z.object({ targetType: entityTypeSchema, targetId: z.uuid(), permission: grantablePermissionSchema }),
  z.object({ targetType: z.literal("workspace"), targetId: userIdSchema, permission: workspaceRoleSchema }),
  z.object({ targetType: z.literal("group"), targetId: groupIdSchema, permission: z.literal("member") }),
]);
export type InvitedAccess = z.infer<typeof invitedAccessSchema>;

export const invitationEventSchemas = [
  z.object({
    type: z.literal("InvitationQueued"),
    data: z.object({
      invitationId: invitationIdSchema,
      email: z.string(),
      access: invitedAccessSchema,
      invitedBy: userIdSchema,
      expiresAt: z.string(),
    }),
  }),
  z.object({
    type: z.literal("InvitationPermissionChanged"),
    data: z.object({ invitationId: invitationIdSchema, access: invitedAccessSchema }),
  }),
  z.object({
    type: z.literal("InvitationResent"),
    data: z.object({ invitationId: invitationIdSchema, resentAt: z.string() }),
  }),
  z.object({
    type: z.literal("InvitationAccepted"),
    data: z.object({ invitationId: invitationIdSchema, userId: userIdSchema }),
  }),
  z.object({ type: z.literal("InvitationExpired"), data: z.object({ invitationId: invitationIdSchema }) }),
  z.object({ type: z.literal("InvitationCancelled"), data: z.object({ invitationId: invitationIdSchema }) }),
  // attemptId is absent from deliveries recorded before attempts had outcomes of their own.
  z.object({
    type: z.literal("InvitationDelivered"),
    data: z.object({ invitationId: invitationIdSchema, deliveredAt: z.string(), attemptId: z.uuid().optional() }),
  }),
  z.object({
    type: z.literal("InvitationDeliveryStarted"),
    data: z.object({ invitationId: invitationIdSchema, attemptId: z.uuid(), startedAt: z.string() }),
  }),
  z.object({
    type: z.literal("InvitationDeliveryFailed"),
    /** `reason` says what went wrong (the mail server's answer, a time-out); it never holds the mail's body. */
    data: z.object({
      invitationId: invitationIdSchema,
      attemptId: z.uuid(),
      reason: z.string().max(500),
      failedAt: z.string(),
    }),
  }),
  // The address was erased (an operator's `npm run erase -- --email` for an address without an account): the
  // invitation no longer names it, and its key is destroyed, so InvitationQueued reads it as erased too.
  z.object({ type: z.literal("InvitationAddressErased"), data: z.object({ invitationId: invitationIdSchema }) }),
] as const;
export type InvitationEvent = z.infer<(typeof invitationEventSchemas)[number]>;

/** Times are ISO strings passed in by the caller: the decider never reads a clock. */
export type InvitationCommand =
  | {
      type: "InviteAddress";
      invitationId: InvitationId;
      email: string;
      access: InvitedAccess;
      actor: Actor;
      now: string;
      ttlMs: number;
    }
  | { type: "ResendInvitation"; invitationId: InvitationId; canManage: boolean; now: string }
  | { type: "AcceptInvitation"; invitationId: InvitationId; email: string; userId: UserId; now: string }
  | { type: "CancelInvitation"; invitationId: InvitationId; canManage: boolean }
  | { type: "StartDelivery"; invitationId: InvitationId; attemptId: string; now: string }
  | { type: "RecordDelivery"; invitationId: InvitationId; attemptId: string; now: string }
  | { type: "RecordDeliveryFailure"; invitationId: InvitationId; attemptId: string; reason: string; now: string }
  | { type: "EraseAddress"; invitationId: InvitationId };

/** How the latest delivery attempt (first send or resend) ended, as clients see it in `deliveryStatus`. */
export type DeliveryStatus = "pending" | "sent" | "failed";

export type InvitationStatus = "pending" | "accepted" | "expired" | "cancelled";

export type InvitationState =
  | { readonly status: "absent" }
  | {
      readonly status: InvitationStatus;
      readonly email: string;
      readonly access: InvitedAccess;
      readonly invitedBy: UserId;
      readonly expiresAt: string;
      readonly lastResentAt: string | null;
      /** How the latest queued delivery (first send or resend) ended; `pending` until it has. */
      readonly delivery: DeliveryStatus;
      /** The delivery attempts (ids of the queuing and resend events) a notifier has started, with when. */
      readonly startedAttempts: ReadonlyArray<{ readonly attemptId: string; readonly startedAt: string }>;
      /** InvitationAddressErased was recorded. */
      readonly addressErased: boolean;
    };
type KnownInvitation = Exclude<InvitationState, { status: "absent" }>;

export const invitationStream = (invitationId: string): string => `invitation-${invitationId}`;

/** A pending invitation whose latest queued delivery has no outcome yet. */
export const owesDelivery = (state: InvitationState): state is KnownInvitation =>
  state.status === "pending" && state.delivery === "pending";

/** When the attempt was started, or null if it never was. */
export const attemptStartedAt = (state: KnownInvitation, attemptId: string): string | null =>
  state.startedAttempts.find((attempt) => attempt.attemptId === attemptId)?.startedAt ?? null;

const attemptStarted = (state: InvitationState, attemptId: string): boolean =>
  state.status !== "absent" && attemptStartedAt(state, attemptId) !== null;

export const isExpired = (invitation: Pick<KnownInvitation, "expiresAt">, now: string): boolean =>
  Date.parse(now) >= Date.parse(invitation.expiresAt);

function assertMayInvite(access: InvitedAccess, current: InvitedAccess | null, actor: Actor): void {
  if (access.targetType === "workspace") {
    if (actor.id !== access.targetId) throw new AppError("forbidden", "only the workspace owner invites members");
    return;
  }
  // The route passes "admin" for whoever manages the group's workspace (its owner or an admin of it).
  if (access.targetType === "group") {
    if (!atLeast(actor.permission, "admin"))
      throw new AppError("forbidden", "only the workspace owner and its admins manage groups");
    return;
  }
  const currentPermission = current?.targetType === access.targetType ? current.permission : null;
  assertMayShare(actor.permission, currentPermission, access.permission, access.targetType);
}

function invite(
  command: Extract<InvitationCommand, { type: "InviteAddress" }>,
  state: InvitationState,
): InvitationEvent[] {
  const { invitationId, access } = command;
  if (state.status === "absent") {
    assertMayInvite(access, null, command.actor);
    const expiresAt = new Date(Date.parse(command.now) + command.ttlMs).toISOString();
    return [
      {
        type: "InvitationQueued",
        data: { invitationId, email: command.email, access, invitedBy: command.actor.id, expiresAt },
      },
    ];
  }
  const sameTarget = state.access.targetType === access.targetType && state.access.targetId === access.targetId;
  if (state.status !== "pending" || isExpired(state, command.now) || !sameTarget || state.email !== command.email) {
    throw new AppError("conflict", "that invitation is no longer pending; send a new one");
  }
  assertMayInvite(access, state.access, command.actor);
  if (state.access.permission === access.permission) return [];
  return [{ type: "InvitationPermissionChanged", data: { invitationId, access } }];
}

const expiredError = () => new AppError("conflict", "the invitation has expired; send a new one");

/** Accepted, expired and cancelled invitations are settled: nothing more can be done with them. */
function refuseSettled(state: KnownInvitation): void {
  if (state.status === "accepted") throw new AppError("conflict", "the invitation was already accepted");
  if (state.status === "cancelled") throw new AppError("conflict", "the invitation was cancelled");
  if (state.status === "expired") throw expiredError();
}

function resend(
  command: Extract<InvitationCommand, { type: "ResendInvitation" }>,
  state: InvitationState,
): InvitationEvent[] {
  if (state.status === "absent") throw new AppError("not_found", "invitation not found");
  if (!command.canManage) throw new AppError("forbidden", "you may not resend this invitation");
  refuseSettled(state);
  if (isExpired(state, command.now)) throw expiredError();
  if (state.lastResentAt !== null) {
    const waitMs = Date.parse(state.lastResentAt) + RESEND_INTERVAL_MS - Date.parse(command.now);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError("rate_limited", `this invitation was resent recently; try again in ${seconds} s`, {
        "retry-after": String(seconds),
      });
    }
  }
  return [{ type: "InvitationResent", data: { invitationId: command.invitationId, resentAt: command.now } }];
}

export const invitationDecider: Decider<InvitationCommand, InvitationState, InvitationEvent> = {
  initialState: { status: "absent" },
  decide(command, state) {
    switch (command.type) {
      case "InviteAddress":
        return invite(command, state);
      case "ResendInvitation":
        return resend(command, state);
      case "AcceptInvitation": {
        if (state.status !== "pending" || state.email !== command.email) return [];
        if (isExpired(state, command.now))
          return [{ type: "InvitationExpired", data: { invitationId: command.invitationId } }];
        return [{ type: "InvitationAccepted", data: { invitationId: command.invitationId, userId: command.userId } }];
      }
      case "CancelInvitation":
        if (state.status === "absent") throw new AppError("not_found", "invitation not found");
        if (!command.canManage) throw new AppError("forbidden", "you may not cancel this invitation");
        refuseSettled(state);
        return [{ type: "InvitationCancelled", data: { invitationId: command.invitationId } }];
      case "StartDelivery":
        if (!owesDelivery(state) || attemptStarted(state, command.attemptId)) return [];
        return [
          {
            type: "InvitationDeliveryStarted",
            data: { invitationId: command.invitationId, attemptId: command.attemptId, startedAt: command.now },
          },
        ];
      // An outcome is recorded once, for an attempt that was started, while the latest delivery is still owed.
      case "RecordDelivery":
        if (!owesDelivery(state) || !attemptStarted(state, command.attemptId)) return [];
        return [
          {
            type: "InvitationDelivered",
            data: { invitationId: command.invitationId, deliveredAt: command.now, attemptId: command.attemptId },
          },
        ];
      case "RecordDeliveryFailure":
        if (!owesDelivery(state) || !attemptStarted(state, command.attemptId)) return [];
        return [
          {
            type: "InvitationDeliveryFailed",
            data: {
              invitationId: command.invitationId,
              attemptId: command.attemptId,
              reason: command.reason.slice(0, 500),
              failedAt: command.now,
            },
          },
        ];
      // A pending invitation is cancelled first: nobody is to receive or accept it.
      case "EraseAddress": {
        if (state.status === "absent" || state.addressErased) return [];
        const erased: InvitationEvent = {
          type: "InvitationAddressErased",
          data: { invitationId: command.invitationId },
        };
        return state.status === "pending"
          ? [{ type: "InvitationCancelled", data: { invitationId: command.invitationId } }, erased]
          : [erased];
      }
    }
  },
  evolve(state, event) {
    if (event.type === "InvitationQueued") {
      const { email, access, invitedBy, expiresAt } = event.data;
      return {
        status: "pending",
        email,
        access,
        invitedBy,
        expiresAt,
        lastResentAt: null,
        delivery: "pending",
        startedAttempts: [],
        addressErased: false,
      };
    }
    if (state.status === "absent") return state;
    switch (event.type) {
      case "InvitationPermissionChanged":
        return { ...state, access: event.data.access };
      case "InvitationResent":
        return { ...state, lastResentAt: event.data.resentAt, delivery: "pending" };
      case "InvitationDeliveryStarted":
        return {
          ...state,
          startedAttempts: [
            ...state.startedAttempts,
            { attemptId: event.data.attemptId, startedAt: event.data.startedAt },
          ],
        };
      case "InvitationDelivered":
        return { ...state, delivery: "sent" };
      case "InvitationDeliveryFailed":
        return { ...state, delivery: "failed" };
      case "InvitationAccepted":
        return { ...state, status: "accepted" };
      case "InvitationExpired":
        return { ...state, status: "expired" };
      case "InvitationCancelled":
        return { ...state, status: "cancelled" };
      case "InvitationAddressErased":
        return { ...state, email: ERASED_EMAIL, addressErased: true };
    }
  },
};
