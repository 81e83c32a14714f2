// When an account registers, the pending invitations of its address are accepted (or, past their time,
// recorded as expired) and what they invited to applies before the registering request continues.
import { randomUUID } from "node:crypto";
import type { Dependencies, RegistrationHook } from "../app/dependencies.ts";
import { awaitProjection } from "../commands/commit.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { runCommand } from "../commands/run-command.ts";
import { eventGuard } from "../events.ts";
import { invitationIdSchema, userIdSchema, type InvitationId, type UserId } from "../kernel/ids.ts";
import { normalizeEmail } from "../users/user.decider.ts";
import { accessStream, entityAccessDecider, entityAccessEventSchemas, type EntityAccessEvent } from "./entity-access.decider.ts";
import { invitationDecider, invitationEventSchemas, invitationStream, type InvitationEvent, type InvitationState } from "./invitation.decider.ts";
import { workspaceDecider, workspaceEventSchemas, workspaceStream, type WorkspaceEvent } from "./workspace.decider.ts";

const isInvitationEvent = eventGuard<InvitationEvent>(invitationEventSchemas);
const isEntityAccessEvent = eventGuard<EntityAccessEvent>(entityAccessEventSchemas);
const isWorkspaceEvent = eventGuard<WorkspaceEvent>(workspaceEventSchemas);

/** Applies what a just-accepted invitation invited to; returns the position of the grant or membership. */
async function applyInvitedAccess(deps: Dependencies, context: CommandContext, invitationId: InvitationId, userId: UserId, state: InvitationState): Promise<number | null> {
  if (state.status !== "accepted") return null;
  const { access, invitedBy } = state;
  if (access.targetType === "workspace") {
    const command = { type: "AddInvitedMember" as const, ownerId: access.targetId, memberId: userId, membershipId: randomUUID(), role: access.permission, invitedBy, invitationId };
    return (await runCommand(deps.eventStore, workspaceStream(access.targetId), workspaceDecider, isWorkspaceEvent, command, context)).position;
  }
  const entity = { type: access.targetType, id: access.targetId };
  const command = { type: "GrantInvitedAccess" as const, entity, userId, permission: access.permission, invitedBy, invitationId };
  return (await runCommand(deps.eventStore, accessStream(entity), entityAccessDecider, isEntityAccessEvent, command, context)).position;
}

export function acceptInvitationsOnRegistration(deps: Dependencies): RegistrationHook {
  return async (user, context) => {
    const email = normalizeEmail(user.email);
    const userId = userIdSchema.parse(user.id);
    let last: number | null = null;
    for (const invitation of await deps.readStore.invitations.pendingForEmail(email)) {
      const invitationId = invitationIdSchema.parse(invitation.id);
      const caused = { ...context, causationId: invitationId };
      try {
        const accepted = await runCommand(deps.eventStore, invitationStream(invitationId), invitationDecider, isInvitationEvent, {
          type: "AcceptInvitation",
          invitationId,
          email,
          userId,
          now: context.now.toISOString(),
        }, caused);
        last = accepted.position ?? last;
        if (accepted.events.some((event) => event.type === "InvitationAccepted")) {
          last = (await applyInvitedAccess(deps, caused, invitationId, userId, accepted.state)) ?? last;
        }
      } catch (error) {
        // One invitation that cannot be settled must not stop the registration or the other invitations.
        deps.logger.warn({ event: "invitation.accept_failed", invitationId, err: error });
      }
    }
    if (last !== null) await awaitProjection(deps, last);
  };
}
