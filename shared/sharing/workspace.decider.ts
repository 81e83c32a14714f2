// A workspace is everything one user owns; its members hold a role that applies to all of the owner's pages
// and folders. Only the owner adds, changes and removes members; an accepted invitation adds one too.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { invitationIdSchema, userIdSchema, type InvitationId, type UserId } from "../kernel/ids.ts";
import { atLeast, roleToPermission, workspaceRoleSchema, type WorkspaceRole } from "../kernel/permissions.ts";

export const workspaceEventSchemas = [
  z.object({
    type: z.literal("WorkspaceMemberAdded"),
    data: z.object({
      ownerId: userIdSchema,
      memberId: userIdSchema,
      membershipId: z.uuid(),
      role: workspaceRoleSchema,
      addedBy: userIdSchema,
      /** Set when the member joined by accepting this invitation. */
      invitationId: invitationIdSchema.nullable(),
    }),
  }),
  z.object({
    type: z.literal("WorkspaceMemberRoleChanged"),
    data: z.object({ ownerId: userIdSchema, memberId: userIdSchema, role: workspaceRoleSchema }),
  }),
  z.object({
    type: z.literal("WorkspaceMemberRemoved"),
    data: z.object({ ownerId: userIdSchema, memberId: userIdSchema, removedBy: userIdSchema }),
  }),
] as const;
export type WorkspaceEvent = z.infer<(typeof workspaceEventSchemas)[number]>;

export type WorkspaceCommand =
  | { type: "AddMember"; ownerId: UserId; memberId: UserId; membershipId: string; role: WorkspaceRole; actorId: UserId }
  | {
      type: "AddInvitedMember";
      ownerId: UserId;
      memberId: UserId;
      membershipId: string;
      role: WorkspaceRole;
      invitedBy: UserId;
      invitationId: InvitationId;
    }
  | { type: "RemoveMember"; ownerId: UserId; memberId: UserId; actorId: UserId }
  /** A member leaves on their own: an erased account leaves every workspace it belonged to. */
  | { type: "LeaveWorkspace"; ownerId: UserId; memberId: UserId };

export interface WorkspaceState {
  /** member id → role */
  readonly members: Readonly<Record<string, WorkspaceRole>>;
}

export const workspaceStream = (ownerId: string): string => `workspace-${ownerId}`;

function requireOwner(ownerId: UserId, actorId: UserId): void {
  if (ownerId !== actorId) throw new AppError("forbidden", "only the workspace owner manages its members");
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceState, WorkspaceEvent> = {
  initialState: { members: {} },
  decide(command, state) {
    const { ownerId, memberId } = command;
    const current = state.members[memberId] ?? null;
    switch (command.type) {
      case "AddMember": {
        requireOwner(ownerId, command.actorId);
        if (memberId === ownerId) throw new AppError("validation_failed", "email: you own this workspace already");
        if (current === command.role) return [];
        if (current !== null)
          return [{ type: "WorkspaceMemberRoleChanged", data: { ownerId, memberId, role: command.role } }];
        const data = {
          ownerId,
          memberId,
          membershipId: command.membershipId,
          role: command.role,
          addedBy: command.actorId,
          invitationId: null,
        };
        return [{ type: "WorkspaceMemberAdded", data }];
      }
      case "AddInvitedMember": {
        // Accepting an invitation never lowers a role the user already holds.
        if (current !== null && atLeast(roleToPermission[current], roleToPermission[command.role])) return [];
        if (current !== null)
          return [{ type: "WorkspaceMemberRoleChanged", data: { ownerId, memberId, role: command.role } }];
        const data = {
          ownerId,
          memberId,
          membershipId: command.membershipId,
          role: command.role,
          addedBy: command.invitedBy,
          invitationId: command.invitationId,
        };
        return [{ type: "WorkspaceMemberAdded", data }];
      }
      case "RemoveMember":
        requireOwner(ownerId, command.actorId);
        if (current === null) throw new AppError("not_found", "that user is not a member of your workspace");
        return [{ type: "WorkspaceMemberRemoved", data: { ownerId, memberId, removedBy: command.actorId } }];
      case "LeaveWorkspace":
        return current === null
          ? []
          : [{ type: "WorkspaceMemberRemoved", data: { ownerId, memberId, removedBy: memberId } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "WorkspaceMemberAdded":
      case "WorkspaceMemberRoleChanged":
        return { members: { ...state.members, [event.data.memberId]: event.data.role } };
      case "WorkspaceMemberRemoved": {
        const { [event.data.memberId]: _removed, ...members } = state.members;
        return { members };
      }
    }
  },
};
