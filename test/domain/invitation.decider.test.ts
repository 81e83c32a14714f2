import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { invitationIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import type { Permission } from "../../shared/kernel/permissions.ts";
import {
  INVITATION_TTL_MS,
  invitationDecider,
  type InvitationEvent,
  type InvitedAccess,
} from "../../shared/sharing/invitation.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(invitationDecider);
const owner = userIdSchema.parse(randomUUID());
const admin = userIdSchema.parse(randomUUID());
const invitationId = invitationIdSchema.parse(randomUUID());
const email = "new@example.com";
const pageAccess = (permission: "view" | "edit" | "admin"): InvitedAccess => ({
  targetType: "page",
  targetId: "9b2f4c1e-5d6a-4e3b-8c7d-1a2b3c4d5e6f",
  permission,
});
const workspaceAccess: InvitedAccess = { targetType: "workspace", targetId: owner, permission: "viewer" };

const start = Date.parse("2030-01-01T12:00:00.000Z");
const at = (ms: number): string => new Date(start + ms).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;

const queued = (
  access: InvitedAccess = pageAccess("view"),
  invitedBy = owner,
  ttlMs = INVITATION_TTL_MS,
): InvitationEvent => ({
  type: "InvitationQueued",
  data: { invitationId, email, access, invitedBy, expiresAt: at(ttlMs) },
});
const resent = (ms: number): InvitationEvent => ({
  type: "InvitationResent",
  data: { invitationId, resentAt: at(ms) },
});
const accepted: InvitationEvent = {
  type: "InvitationAccepted",
  data: { invitationId, userId: userIdSchema.parse(randomUUID()) },
};
const expired: InvitationEvent = { type: "InvitationExpired", data: { invitationId } };
const cancelled: InvitationEvent = { type: "InvitationCancelled", data: { invitationId } };

const invite = (
  access: InvitedAccess,
  actor: { id: typeof owner; permission: Permission } = { id: owner, permission: "owner" },
  ttlMs = INVITATION_TTL_MS,
) => ({
  type: "InviteAddress" as const,
  invitationId,
  email,
  access,
  actor,
  now: at(0),
  ttlMs,
});
const resend = (ms: number, canManage = true) => ({
  type: "ResendInvitation" as const,
  invitationId,
  canManage,
  now: at(ms),
});

describe("inviting an address without an account", () => {
  it("queues an invitation that expires in 7 days by default", () => {
    spec
      .given([])
      .when(invite(pageAccess("view")))
      .then([queued()]);
  });

  it("takes the time to live from the command", () => {
    spec
      .given([])
      .when(invite(pageAccess("view"), undefined, 5 * MINUTE))
      .then([queued(pageAccess("view"), owner, 5 * MINUTE)]);
  });

  it("inviting the same address again changes the invited permission, without a second invitation", () => {
    spec
      .given([queued()])
      .when(invite(pageAccess("edit")))
      .then([{ type: "InvitationPermissionChanged", data: { invitationId, access: pageAccess("edit") } }]);
    spec
      .given([queued()])
      .when(invite(pageAccess("view")))
      .then([]);
  });

  it("follows the sharing rules: only the owner invites as admin, and viewers invite no one", () => {
    spec
      .given([])
      .when(invite(pageAccess("admin"), { id: admin, permission: "admin" }))
      .thenRefuses("forbidden");
    spec
      .given([])
      .when(invite(pageAccess("view"), { id: admin, permission: "view" }))
      .thenRefuses("forbidden");
    spec
      .given([])
      .when(invite(pageAccess("edit"), { id: admin, permission: "admin" }))
      .then([queued(pageAccess("edit"), admin)]);
  });

  it("only the workspace owner invites to the workspace", () => {
    spec
      .given([])
      .when(invite(workspaceAccess))
      .then([queued(workspaceAccess)]);
    spec
      .given([])
      .when(invite(workspaceAccess, { id: admin, permission: "owner" }))
      .thenRefuses("forbidden");
  });
});

describe("resending an invitation", () => {
  it("re-queues a pending invitation at once", () => {
    spec
      .given([queued()])
      .when(resend(5 * SECOND))
      .then([resent(5 * SECOND)]);
  });

  it("allows one resend a minute, answering 429 with Retry-After in between", () => {
    spec
      .given([queued(), resent(0)])
      .when(resend(20 * SECOND))
      .thenRefuses("rate_limited", { "retry-after": "40" });
    spec
      .given([queued(), resent(0)])
      .when(resend(59_500))
      .thenRefuses("rate_limited", { "retry-after": "1" });
    spec
      .given([queued(), resent(0)])
      .when(resend(MINUTE))
      .then([resent(MINUTE)]);
  });

  it("is not found when there is no such invitation", () => {
    spec.given([]).when(resend(0)).thenRefuses("not_found");
  });

  it("is forbidden to whoever may not manage it", () => {
    spec.given([queued()]).when(resend(0, false)).thenRefuses("forbidden");
  });

  it("conflicts once the invitation is accepted, expired or cancelled", () => {
    spec.given([queued(), accepted]).when(resend(MINUTE)).thenRefuses("conflict");
    spec.given([queued(), expired]).when(resend(MINUTE)).thenRefuses("conflict");
    spec.given([queued(), cancelled]).when(resend(MINUTE)).thenRefuses("conflict");
  });

  it("conflicts once the invitation's time is up, even before its expiry is recorded", () => {
    spec
      .given([queued()])
      .when(resend(INVITATION_TTL_MS - 1))
      .then([resent(INVITATION_TTL_MS - 1)]);
    spec.given([queued()]).when(resend(INVITATION_TTL_MS)).thenRefuses("conflict");
  });
});

describe("accepting an invitation when the address registers", () => {
  const userId = userIdSchema.parse(randomUUID());
  const accept = (ms: number, address = email) => ({
    type: "AcceptInvitation" as const,
    invitationId,
    email: address,
    userId,
    now: at(ms),
  });

  it("accepts a pending invitation", () => {
    spec
      .given([queued()])
      .when(accept(MINUTE))
      .then([{ type: "InvitationAccepted", data: { invitationId, userId } }]);
  });

  it("records the expiry of one whose time is up", () => {
    spec.given([queued()]).when(accept(INVITATION_TTL_MS)).then([expired]);
  });

  it("does nothing for a settled invitation or another address", () => {
    spec.given([queued(), accepted]).when(accept(MINUTE)).then([]);
    spec.given([queued(), cancelled]).when(accept(MINUTE)).then([]);
    spec.given([queued()]).when(accept(MINUTE, "other@example.com")).then([]);
  });
});

describe("cancelling an invitation", () => {
  const cancel = (canManage = true) => ({ type: "CancelInvitation" as const, invitationId, canManage });

  it("cancels a pending invitation for whoever may manage it", () => {
    spec.given([queued()]).when(cancel()).then([cancelled]);
    spec.given([queued()]).when(cancel(false)).thenRefuses("forbidden");
  });

  it("is not found or conflicts when there is nothing pending", () => {
    spec.given([]).when(cancel()).thenRefuses("not_found");
    spec.given([queued(), accepted]).when(cancel()).thenRefuses("conflict");
  });
});

describe("starting a delivery attempt", () => {
  // An attempt is named by the id of the event that queued it (InvitationQueued or InvitationResent).
  const firstAttempt = randomUUID();
  const resendAttempt = randomUUID();
  const startDelivery = (attemptId: string, ms: number) => ({
    type: "StartDelivery" as const,
    invitationId,
    attemptId,
    now: at(ms),
  });
  const started = (attemptId: string, ms: number): InvitationEvent => ({
    type: "InvitationDeliveryStarted",
    data: { invitationId, attemptId, startedAt: at(ms) },
  });
  const delivered = (ms: number): InvitationEvent => ({
    type: "InvitationDelivered",
    data: { invitationId, deliveredAt: at(ms) },
  });

  it("starts an attempt of a pending invitation", () => {
    spec
      .given([queued()])
      .when(startDelivery(firstAttempt, SECOND))
      .then([started(firstAttempt, SECOND)]);
  });

  it("starts each attempt only once, even if it was never recorded as delivered", () => {
    spec
      .given([queued(), started(firstAttempt, SECOND)])
      .when(startDelivery(firstAttempt, 2 * SECOND))
      .then([]);
    spec
      .given([queued(), started(firstAttempt, SECOND), resent(MINUTE), started(resendAttempt, MINUTE)])
      .when(startDelivery(firstAttempt, 2 * MINUTE))
      .then([]);
  });

  it("starts a resend's attempt after the first one", () => {
    spec
      .given([queued(), started(firstAttempt, SECOND), delivered(2 * SECOND), resent(MINUTE)])
      .when(startDelivery(resendAttempt, MINUTE))
      .then([started(resendAttempt, MINUTE)]);
    spec
      .given([queued(), started(firstAttempt, SECOND), resent(MINUTE)])
      .when(startDelivery(resendAttempt, MINUTE))
      .then([started(resendAttempt, MINUTE)]);
  });

  it("starts no earlier attempt once the latest one was delivered", () => {
    spec
      .given([queued(), resent(MINUTE), started(resendAttempt, MINUTE), delivered(MINUTE)])
      .when(startDelivery(firstAttempt, 2 * MINUTE))
      .then([]);
  });

  it("starts nothing for an invitation that was accepted, cancelled, expired or never queued", () => {
    spec.given([queued(), accepted]).when(startDelivery(firstAttempt, SECOND)).then([]);
    spec.given([queued(), cancelled]).when(startDelivery(firstAttempt, SECOND)).then([]);
    spec.given([queued(), expired]).when(startDelivery(firstAttempt, SECOND)).then([]);
    spec.given([]).when(startDelivery(firstAttempt, SECOND)).then([]);
  });

  it("still owes the delivery record of a started attempt", () => {
    spec
      .given([queued(), started(firstAttempt, SECOND)])
      .when({ type: "RecordDelivery", invitationId, attemptId: firstAttempt, now: at(2 * SECOND) })
      .then([
        { type: "InvitationDelivered", data: { invitationId, deliveredAt: at(2 * SECOND), attemptId: firstAttempt } },
      ]);
  });

  it("starts no attempt of an invitation whose latest delivery failed, until a resend", () => {
    const failed: InvitationEvent = {
      type: "InvitationDeliveryFailed",
      data: { invitationId, attemptId: firstAttempt, reason: "550 no such user", failedAt: at(SECOND) },
    };
    spec
      .given([queued(), started(firstAttempt, SECOND), failed])
      .when(startDelivery(resendAttempt, MINUTE))
      .then([]);
    spec
      .given([queued(), started(firstAttempt, SECOND), failed, resent(MINUTE)])
      .when(startDelivery(resendAttempt, MINUTE))
      .then([started(resendAttempt, MINUTE)]);
  });
});

describe("recording how a delivery attempt ended", () => {
  const attempt = randomUUID();
  const started: InvitationEvent = {
    type: "InvitationDeliveryStarted",
    data: { invitationId, attemptId: attempt, startedAt: at(0) },
  };
  const deliver = (ms: number, attemptId = attempt) => ({
    type: "RecordDelivery" as const,
    invitationId,
    attemptId,
    now: at(ms),
  });
  const fail = (ms: number, reason = "connection refused") => ({
    type: "RecordDeliveryFailure" as const,
    invitationId,
    attemptId: attempt,
    reason,
    now: at(ms),
  });
  const delivered = (ms: number): InvitationEvent => ({
    type: "InvitationDelivered",
    data: { invitationId, deliveredAt: at(ms), attemptId: attempt },
  });
  const failed = (ms: number, reason = "connection refused"): InvitationEvent => ({
    type: "InvitationDeliveryFailed",
    data: { invitationId, attemptId: attempt, reason, failedAt: at(ms) },
  });

  it("records the delivery of a started attempt once", () => {
    spec
      .given([queued(), started])
      .when(deliver(SECOND))
      .then([delivered(SECOND)]);
    spec
      .given([queued(), started, delivered(SECOND)])
      .when(deliver(2 * SECOND))
      .then([]);
  });

  it("records the failure of a started attempt once, and nothing after either outcome", () => {
    spec
      .given([queued(), started])
      .when(fail(SECOND))
      .then([failed(SECOND)]);
    spec
      .given([queued(), started, failed(SECOND)])
      .when(fail(2 * SECOND))
      .then([]);
    spec
      .given([queued(), started, failed(SECOND)])
      .when(deliver(2 * SECOND))
      .then([]);
    spec
      .given([queued(), started, delivered(SECOND)])
      .when(fail(2 * SECOND))
      .then([]);
  });

  it("keeps a failure reason to 500 characters", () => {
    spec
      .given([queued(), started])
      .when(fail(SECOND, "x".repeat(600)))
      .then([failed(SECOND, "x".repeat(500))]);
  });

  it("records no outcome for an attempt that was never started", () => {
    spec.given([queued()]).when(deliver(SECOND)).then([]);
    spec.given([queued()]).when(fail(SECOND)).then([]);
    spec.given([queued(), started]).when(deliver(SECOND, randomUUID())).then([]);
  });

  it("owes a new delivery after a resend, whatever became of the last one", () => {
    const resend = randomUUID();
    const startedResend: InvitationEvent = {
      type: "InvitationDeliveryStarted",
      data: { invitationId, attemptId: resend, startedAt: at(2 * MINUTE) },
    };
    spec
      .given([queued(), started, failed(SECOND), resent(2 * MINUTE), startedResend])
      .when({ type: "RecordDelivery", invitationId, attemptId: resend, now: at(3 * MINUTE) })
      .then([{ type: "InvitationDelivered", data: { invitationId, deliveredAt: at(3 * MINUTE), attemptId: resend } }]);
  });

  it("records nothing for an invitation that was accepted, cancelled or never queued", () => {
    spec
      .given([queued(), started, { type: "InvitationCancelled", data: { invitationId } }])
      .when(deliver(SECOND))
      .then([]);
    spec
      .given([queued(), started, { type: "InvitationAccepted", data: { invitationId, userId: owner } }])
      .when(fail(SECOND))
      .then([]);
    spec.given([]).when(deliver(SECOND)).then([]);
  });
});

describe("erasing an invitation's address", () => {
  const eraseAddress = { type: "EraseAddress" as const, invitationId };
  const addressErased: InvitationEvent = { type: "InvitationAddressErased", data: { invitationId } };

  it("cancels a pending invitation and records that it names the address no more", () => {
    spec.given([queued()]).when(eraseAddress).then([cancelled, addressErased]);
  });

  it("records only the erasure for a settled invitation, and nothing the second time or for an unknown one", () => {
    spec.given([queued(), expired]).when(eraseAddress).then([addressErased]);
    spec.given([queued(), cancelled]).when(eraseAddress).then([addressErased]);
    spec.given([queued(), addressErased]).when(eraseAddress).then([]);
    spec.given([queued(), cancelled, addressErased]).when(eraseAddress).then([]);
    spec.given([]).when(eraseAddress).then([]);
  });

  it("is not accepted by the address registering afterwards", () => {
    spec
      .given([queued(), cancelled, addressErased])
      .when({ type: "AcceptInvitation", invitationId, email, userId: owner, now: at(SECOND) })
      .then([]);
  });
});
