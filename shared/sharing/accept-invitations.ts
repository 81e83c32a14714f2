// When an account registers, the pending invitations of its address are accepted (or, past their time,
// recorded as expired) and what they invited to applies before the registering request continues.
import { randomUUID } from "node:crypto";
import type { Dependencies, RegistrationHook } from "../app/dependencies.ts";
import { awaitProjection } from "../commands/commit.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { loadState } from "../commands/load-state.ts";
import { runCommand } from "../commands/run-command.ts";
import { eventGuard } from "../events.ts";
import { invitationIdSchema, userIdSchema, type InvitationId, type UserId } from "../kernel/ids.ts";
import { normalizeEmail } from "../users/user.decider.ts";
import { accessStream, entityAccessDecider, entityAccessEventSchemas, type EntityAccessEvent } from "./entity-access.decider.ts";
import { invitationDecider, invitationEventSchemas, invitationStream, isExpired, type InvitationEvent, type InvitationState } from "./invitation.decider.ts";

type PendingInvitation = Exclude<InvitationState, { status: "absent" }>;
import { workspaceDecider, workspaceEventSchemas, workspaceStream, type WorkspaceEvent } from "./workspace.decider.ts";

const isInvitationEvent = eventGuard<InvitationEvent>(invitationEventSchemas);
const isEntityAccessEvent = eventGuard<EntityAccessEvent>(entityAccessEventSchemas);
const isWorkspaceEvent = eventGuard<WorkspaceEvent>(workspaceEventSchemas);

/** Applies what a pending invitation invites to; returns the position of the grant or membership. */
async function applyInvitedAccess(deps: Dependencies, context: CommandContext, invitationId: InvitationId, userId: UserId, state: PendingInvitation): Promise<number | null> {
  const { access, invitedBy } = state;
  if (access.targetType === "workspace") {
    const command = { type: "AddInvitedMember" as const, ownerId: access.targetId, memberId: userId, membershipId: randomUUID(), role: access.permission, invitedBy, invitationId };
    return (await runCommand(deps.eventStore, workspaceStream(access.targetId), workspaceDecider, isWorkspaceEvent, command, context)).position;
  }
  const entity = { type: access.targetType, id: access.targetId };
  const command = { type: "GrantInvitedAccess" as const, entity, userId, permission: access.permission, invitedBy, invitationId };
  return (await runCommand(deps.eventStore, accessStream(entity), entityAccessDecider, isEntityAccessEvent, command, context)).position;
}

/**
 * Settles one pending invitation of the address: the access it invites to is applied first, then the
 * invitation is marked accepted. Both steps are idempotent, so if the process stops between them the
 * invitation is still pending and the next run completes it (the hook runs again at the user's first request
 * to each process).
 */
async function settle(deps: Dependencies, context: CommandContext, invitationId: InvitationId, email: string, userId: UserId): Promise<number | null> {
  const { state } = await loadState(deps.eventStore, invitationStream(invitationId), invitationDecider, isInvitationEvent);
  if (state.status !== "pending" || state.email !== email) return null;
  const now = context.now.toISOString();
  const granted = isExpired(state, now) ? null : await applyInvitedAccess(deps, context, invitationId, userId, state);
  const accepted = await runCommand(deps.eventStore, invitationStream(invitationId), invitationDecider, isInvitationEvent, {
    type: "AcceptInvitation",
    invitationId,
    email,
    userId,
    now,
  }, context);
  return accepted.position ?? granted;
}

export function acceptInvitationsOnRegistration(deps: Dependencies): RegistrationHook {
  return async (user, context) => {
    const email = normalizeEmail(user.email);
    const userId = userIdSchema.parse(user.id);
    let last: number | null = null;
    for (const invitation of await deps.readStore.invitations.pendingForEmail(email)) {
      const invitationId = invitationIdSchema.parse(invitation.id);
      try {
        last = (await settle(deps, { ...context, causationId: invitationId }, invitationId, email, userId)) ?? last;
      } catch (error) {
        // One invitation that cannot be settled must not stop the registration or the other invitations.
        deps.logger.warn({ event: "invitation.accept_failed", invitationId, err: error });
      }
    }
    if (last !== null) await awaitProjection(deps, last);
  };
}
