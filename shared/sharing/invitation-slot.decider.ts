// One pending invitation per address and target: the stream `invitation-slot-<target>-<email>` names the
// invitation that currently holds the slot, and a new invitation takes it only from the holder it saw, so two
// concurrent first invitations of one address cannot both be queued.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { invitationIdSchema, type InvitationId } from "../kernel/ids.ts";

export const invitationSlotEventSchemas = [
  z.object({
    type: z.literal("InvitationSlotTaken"),
    data: z.object({ invitationId: invitationIdSchema, previous: invitationIdSchema.nullable() }),
  }),
] as const;
export type InvitationSlotEvent = z.infer<(typeof invitationSlotEventSchemas)[number]>;

export type InvitationSlotCommand = { type: "TakeSlot"; invitationId: InvitationId; previous: InvitationId | null };
export type InvitationSlotState = { holder: InvitationId | null };

export const invitationSlotStream = (targetType: string, targetId: string, email: string): string =>
  `invitation-slot-${targetType}-${targetId}-${email}`;

export const invitationSlotDecider: Decider<InvitationSlotCommand, InvitationSlotState, InvitationSlotEvent> = {
  initialState: { holder: null },
  decide(command, state) {
    if (state.holder !== command.previous)
      throw new AppError("conflict", "another invitation of this address was queued meanwhile");
    return [{ type: "InvitationSlotTaken", data: { invitationId: command.invitationId, previous: command.previous } }];
  },
  evolve(_state, event) {
    return { holder: event.data.invitationId };
  },
};
