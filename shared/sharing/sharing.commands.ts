// Sharing commands bound once: grants per page or folder, workspace membership, invitations and the
// invitation slot that keeps one pending invitation per address and target.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { InvitationId } from "../kernel/ids.ts";
import {
  accessStream,
  entityAccessDecider,
  entityAccessEventSchemas,
  type EntityRef,
} from "./entity-access.decider.ts";
import { invitationSlotDecider, invitationSlotEventSchemas, invitationSlotStream } from "./invitation-slot.decider.ts";
import { invitationDecider, invitationEventSchemas, invitationStream } from "./invitation.decider.ts";
import { workspaceDecider, workspaceEventSchemas, workspaceStream } from "./workspace.decider.ts";

export const entityAccessCommands = deciderCommandHandler({
  decider: entityAccessDecider,
  streamOf: (entity: EntityRef) => accessStream(entity),
  eventSchemas: entityAccessEventSchemas,
});

export const workspaceCommands = deciderCommandHandler({
  decider: workspaceDecider,
  streamOf: (ownerId: string) => workspaceStream(ownerId),
  eventSchemas: workspaceEventSchemas,
});

export const invitationCommands = deciderCommandHandler({
  decider: invitationDecider,
  streamOf: (id: InvitationId) => invitationStream(id),
  eventSchemas: invitationEventSchemas,
});

export interface InvitationSlot {
  readonly targetType: string;
  readonly targetId: string;
  readonly email: string;
}

export const invitationSlotCommands = deciderCommandHandler({
  decider: invitationSlotDecider,
  streamOf: (slot: InvitationSlot) => invitationSlotStream(slot.targetType, slot.targetId, slot.email),
  eventSchemas: invitationSlotEventSchemas,
});
