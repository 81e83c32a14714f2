// Inviting an address that has no account: a pending invitation of that address to the same target is
// updated rather than duplicated, even under concurrent requests; otherwise a new invitation is queued.
import { randomUUID } from "node:crypto";
import type { Dependencies } from "../app/dependencies.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { loadState } from "../commands/load-state.ts";
import { runCommand } from "../commands/run-command.ts";
import { AppError } from "../errors/app-error.ts";
import { eventGuard } from "../events.ts";
import { invitationIdSchema, type InvitationId } from "../kernel/ids.ts";
import { INVITATION_TTL_MS, invitationDecider, invitationEventSchemas, invitationStream, isExpired, type InvitationEvent, type InvitedAccess } from "./invitation.decider.ts";
import { invitationSlotDecider, invitationSlotEventSchemas, invitationSlotStream, type InvitationSlotEvent } from "./invitation-slot.decider.ts";
import type { Actor } from "./share-rules.ts";

const isInvitationEvent = eventGuard<InvitationEvent>(invitationEventSchemas);

const isSlotEvent = eventGuard<InvitationSlotEvent>(invitationSlotEventSchemas);
const ATTEMPTS = 5;

/**
 * The slot names the invitation to reuse while it is pending; otherwise a new invitation takes the slot from
 * the holder it saw (a concurrent inviter that took it first makes this attempt start again and reuse theirs),
 * and only then is it queued.
 */
export async function inviteAddress(
  deps: Dependencies,
  context: CommandContext,
  request: { email: string; access: InvitedAccess; actor: Actor },
): Promise<{ invitationId: InvitationId; position: number | null }> {
  const { email, access, actor } = request;
  const now = context.now.toISOString();
  const slot = invitationSlotStream(access.targetType, access.targetId, email);
  const invite = async (invitationId: InvitationId) => {
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
  };
  for (let attempt = 1; ; attempt += 1) {
    const { state } = await loadState(deps.eventStore, slot, invitationSlotDecider, isSlotEvent);
    if (state.holder !== null) {
      const { state: held } = await loadState(deps.eventStore, invitationStream(state.holder), invitationDecider, isInvitationEvent);
      if (held.status === "pending" && !isExpired(held, now) && held.email === email) return invite(state.holder);
    }
    const invitationId = invitationIdSchema.parse(randomUUID());
    try {
      await runCommand(deps.eventStore, slot, invitationSlotDecider, isSlotEvent, { type: "TakeSlot", invitationId, previous: state.holder }, context);
    } catch (error) {
      if (error instanceof AppError && error.code === "conflict" && attempt < ATTEMPTS) continue;
      throw error;
    }
    return invite(invitationId);
  }
}
