// Inviting an address that has no account: a pending invitation of that address to the same target is
// updated rather than duplicated, even under concurrent requests; otherwise a new invitation is queued.
import { randomUUID } from "node:crypto";
import type { CommandContext } from "../commands/command-context.ts";
import { AppError } from "../errors/app-error.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import { invitationIdSchema, type InvitationId } from "../kernel/ids.ts";
import { INVITATION_TTL_MS, isExpired, type InvitedAccess } from "./invitation.decider.ts";
import type { Actor } from "./share-rules.ts";
import { invitationCommands, invitationSlotCommands } from "./sharing.commands.ts";

const ATTEMPTS = 5;

/**
 * The slot names the invitation to reuse while it is pending; otherwise a new invitation takes the slot from
 * the holder it saw (a concurrent inviter that took it first makes this attempt start again and reuse theirs),
 * and only then is it queued.
 */
export async function inviteAddress(
  eventStore: EventStore,
  context: CommandContext,
  request: { email: string; access: InvitedAccess; actor: Actor },
): Promise<{ invitationId: InvitationId; position: number | null }> {
  const { email, access, actor } = request;
  const now = context.now.toISOString();
  const slot = { targetType: access.targetType, targetId: access.targetId, email };
  const invite = async (invitationId: InvitationId) => {
    const result = await invitationCommands.handle(
      eventStore,
      invitationId,
      {
        type: "InviteAddress",
        invitationId,
        email,
        access,
        actor,
        now,
        ttlMs: INVITATION_TTL_MS,
      },
      context,
    );
    return { invitationId, position: result.position };
  };
  for (let attempt = 1; ; attempt += 1) {
    const state = await invitationSlotCommands.load(eventStore, slot);
    if (state.holder !== null) {
      const held = await invitationCommands.load(eventStore, state.holder);
      // An absent holder is one whose request took the slot and has not queued it yet (a concurrent first
      // invitation): it is this address's pending invitation too, and whichever request gets there first queues it.
      if (held.status === "absent" || (held.status === "pending" && !isExpired(held, now) && held.email === email))
        return invite(state.holder);
    }
    const invitationId = invitationIdSchema.parse(randomUUID());
    try {
      await invitationSlotCommands.handle(
        eventStore,
        slot,
        { type: "TakeSlot", invitationId, previous: state.holder },
        context,
      );
    } catch (error) {
      if (error instanceof AppError && error.code === "conflict" && attempt < ATTEMPTS) continue;
      throw error;
    }
    return invite(invitationId);
  }
}
