// Inviting an address that has no account: a pending invitation of that address to the same target is
// updated rather than duplicated; otherwise a new invitation is queued for delivery.
import { randomUUID } from "node:crypto";
import type { Dependencies } from "../app/dependencies.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { runCommand } from "../commands/run-command.ts";
import { eventGuard } from "../events.ts";
import { invitationIdSchema, type InvitationId } from "../kernel/ids.ts";
import { INVITATION_TTL_MS, invitationDecider, invitationEventSchemas, invitationStream, type InvitationEvent, type InvitedAccess } from "./invitation.decider.ts";
import type { Actor } from "./share-rules.ts";

const isInvitationEvent = eventGuard<InvitationEvent>(invitationEventSchemas);

export async function inviteAddress(
  deps: Dependencies,
  context: CommandContext,
  request: { email: string; access: InvitedAccess; actor: Actor },
): Promise<{ invitationId: InvitationId; position: number | null }> {
  const { email, access, actor } = request;
  const now = context.now.toISOString();
  const latest = await deps.readStore.invitations.latestFor(access.targetType, access.targetId, email);
  const reusable = latest !== null && latest.status === "pending" && latest.expiresAt > now;
  const invitationId = invitationIdSchema.parse(reusable ? latest.id : randomUUID());
  const result = await runCommand(deps.eventStore, invitationStream(invitationId), invitationDecider, isInvitationEvent, {
    type: "InviteAddress",
    invitationId,
    email,
    access,
    actor,
    now,
    ttlMs: INVITATION_TTL_MS,
  }, context);
  return { invitationId, position: result.position };
}
