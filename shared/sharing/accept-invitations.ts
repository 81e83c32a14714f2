// When an account registers, the pending invitations of its address are accepted (or, past their time,
// recorded as expired) and what they invited to applies. The caller waits for the returned position, so the
// access applies to the very request that registered the account.
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { CommandContext } from "../commands/command-context.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import { invitationIdSchema, userIdSchema, type InvitationId, type UserId } from "../kernel/ids.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { RegistrationHook } from "../users/record-session.ts";
import { normalizeEmail } from "../users/user.decider.ts";
import { isExpired, type InvitationState } from "./invitation.decider.ts";
import { groupCommands } from "../groups/group.commands.ts";
import { entityAccessCommands, invitationCommands, workspaceCommands } from "./sharing.commands.ts";

type PendingInvitation = Exclude<InvitationState, { status: "absent" }>;

interface AcceptancePorts {
  readonly eventStore: EventStore;
  readonly views: Pick<ReadModels, "invitations">;
  readonly logger: Logger;
}

/** Applies what a pending invitation invites to; returns the position of the grant or membership. */
async function applyInvitedAccess(
  eventStore: EventStore,
  context: CommandContext,
  invitationId: InvitationId,
  userId: UserId,
  state: PendingInvitation,
): Promise<number | null> {
  const { access, invitedBy } = state;
  if (access.targetType === "workspace") {
    const command = {
      type: "AddInvitedMember" as const,
      ownerId: access.targetId,
      memberId: userId,
      membershipId: randomUUID(),
      role: access.permission,
      invitedBy,
      invitationId,
    };
    return (await workspaceCommands.handle(eventStore, access.targetId, command, context)).position;
  }
  if (access.targetType === "group") {
    const command = {
      type: "AddInvitedGroupMember" as const,
      groupId: access.targetId,
      memberId: userId,
      invitedBy,
      invitationId,
    };
    return (await groupCommands.handle(eventStore, access.targetId, command, context)).position;
  }
  const entity = { type: access.targetType, id: access.targetId };
  const command = {
    type: "GrantInvitedAccess" as const,
    entity,
    userId,
    permission: access.permission,
    invitedBy,
    invitationId,
  };
  return (await entityAccessCommands.handle(eventStore, entity, command, context)).position;
}

/**
 * Settles one pending invitation of the address: the access it invites to is applied first, then the
 * invitation is marked accepted. Both steps are idempotent, so if the process stops between them the
 * invitation is still pending and the next run completes it (the hook runs again at the user's first request
 * to each process).
 */
async function settle(
  eventStore: EventStore,
  context: CommandContext,
  invitationId: InvitationId,
  email: string,
  userId: UserId,
): Promise<number | null> {
  const state = await invitationCommands.load(eventStore, invitationId);
  if (state.status !== "pending" || state.email !== email) return null;
  const now = context.now.toISOString();
  const granted = isExpired(state, now)
    ? null
    : await applyInvitedAccess(eventStore, context, invitationId, userId, state);
  const accepted = await invitationCommands.handle(
    eventStore,
    invitationId,
    {
      type: "AcceptInvitation",
      invitationId,
      email,
      userId,
      now,
    },
    context,
  );
  return accepted.position ?? granted;
}

export function acceptInvitationsOnRegistration(ports: AcceptancePorts): RegistrationHook {
  return async (user, context) => {
    const email = normalizeEmail(user.email);
    const userId = userIdSchema.parse(user.id);
    let last: number | null = null;
    for (const invitation of await ports.views.invitations.pendingForEmail(email)) {
      const invitationId = invitationIdSchema.parse(invitation.id);
      try {
        last =
          (await settle(ports.eventStore, { ...context, causationId: invitationId }, invitationId, email, userId)) ??
          last;
      } catch (error) {
        // One invitation that cannot be settled must not stop the registration or the other invitations.
        ports.logger.warn({ event: "invitation.accept_failed", invitationId, err: error });
      }
    }
    return last;
  };
}
