// A group: named people of one workspace (its owner's), to whom pages, folders and a workspace role are given at
// once. The workspace owner and its admins manage groups; a member may leave; only the owner gives a group a
// workspace role, as only the owner manages the workspace's members. Member ids are ids; the name is sealed
// under the owner's key (shared/erasure/sealed-fields.ts).
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import {
  groupIdSchema,
  invitationIdSchema,
  userIdSchema,
  type GroupId,
  type InvitationId,
  type UserId,
} from "../kernel/ids.ts";
import { workspaceRoleSchema, type WorkspaceRole } from "../kernel/permissions.ts";

/** At most this many members: what a share to a group fans out to stays bounded. */
const MAX_GROUP_MEMBERS = 1000;

export const groupEventSchemas = [
  z.object({
    type: z.literal("GroupCreated"),
    data: z.object({ groupId: groupIdSchema, ownerId: userIdSchema, name: z.string(), createdBy: userIdSchema }),
  }),
  z.object({
    type: z.literal("GroupRenamed"),
    data: z.object({ groupId: groupIdSchema, ownerId: userIdSchema, name: z.string() }),
  }),
  z.object({
    type: z.literal("GroupDeleted"),
    data: z.object({ groupId: groupIdSchema, ownerId: userIdSchema, deletedBy: userIdSchema }),
  }),
  z.object({
    type: z.literal("GroupMemberAdded"),
    data: z.object({
      groupId: groupIdSchema,
      ownerId: userIdSchema,
      memberId: userIdSchema,
      addedBy: userIdSchema,
      /** Set when the member joined by accepting this invitation. */
      invitationId: invitationIdSchema.nullable(),
    }),
  }),
  z.object({
    type: z.literal("GroupMemberRemoved"),
    data: z.object({ groupId: groupIdSchema, ownerId: userIdSchema, memberId: userIdSchema, removedBy: userIdSchema }),
  }),
  /** The group's role in its owner's workspace; null takes it away. */
  z.object({
    type: z.literal("GroupRoleChanged"),
    data: z.object({
      groupId: groupIdSchema,
      ownerId: userIdSchema,
      role: workspaceRoleSchema.nullable(),
      changedBy: userIdSchema,
    }),
  }),
] as const;
export type GroupEvent = z.infer<(typeof groupEventSchemas)[number]>;

/** Who acts, and whether they manage the group's workspace (its owner or an admin of it), as the guard found. */
interface GroupActor {
  readonly id: UserId;
  readonly manages: boolean;
}

export type GroupCommand =
  | { type: "CreateGroup"; groupId: GroupId; ownerId: UserId; name: string; actor: GroupActor }
  | { type: "RenameGroup"; groupId: GroupId; name: string; actor: GroupActor }
  | { type: "DeleteGroup"; groupId: GroupId; actor: GroupActor }
  | { type: "AddGroupMember"; groupId: GroupId; memberId: UserId; actor: GroupActor }
  | { type: "AddInvitedGroupMember"; groupId: GroupId; memberId: UserId; invitedBy: UserId; invitationId: InvitationId }
  | { type: "RemoveGroupMember"; groupId: GroupId; memberId: UserId; actor: GroupActor }
  | { type: "ChangeGroupRole"; groupId: GroupId; role: WorkspaceRole | null; actor: GroupActor }
  /** A member leaves on their own: an erased account leaves every group it belonged to. */
  | { type: "LeaveGroup"; groupId: GroupId; memberId: UserId };

export type GroupState =
  | { readonly status: "absent" }
  | {
      readonly status: "active" | "deleted";
      readonly ownerId: UserId;
      readonly name: string;
      readonly members: ReadonlySet<string>;
      readonly role: WorkspaceRole | null;
    };
type KnownGroup = Exclude<GroupState, { status: "absent" }>;

export const groupStream = (groupId: string): string => `group-${groupId}`;

const notFound = () => new AppError("not_found", "group not found");

function activeGroup(state: GroupState): KnownGroup {
  if (state.status !== "active") throw notFound();
  return state;
}

function requireManager(actor: GroupActor): void {
  if (!actor.manages) throw new AppError("forbidden", "only the workspace owner and its admins manage groups");
}

export const groupDecider: Decider<GroupCommand, GroupState, GroupEvent> = {
  initialState: { status: "absent" },
  decide(command, state) {
    const { groupId } = command;
    switch (command.type) {
      case "CreateGroup":
        requireManager(command.actor);
        if (state.status !== "absent") throw new AppError("conflict", "that group exists already");
        return [
          {
            type: "GroupCreated",
            data: { groupId, ownerId: command.ownerId, name: command.name, createdBy: command.actor.id },
          },
        ];
      case "RenameGroup": {
        const group = activeGroup(state);
        requireManager(command.actor);
        if (group.name === command.name) return [];
        return [{ type: "GroupRenamed", data: { groupId, ownerId: group.ownerId, name: command.name } }];
      }
      case "DeleteGroup": {
        const group = activeGroup(state);
        requireManager(command.actor);
        return [{ type: "GroupDeleted", data: { groupId, ownerId: group.ownerId, deletedBy: command.actor.id } }];
      }
      case "AddGroupMember": {
        const group = activeGroup(state);
        requireManager(command.actor);
        if (group.members.has(command.memberId)) return [];
        if (group.members.size >= MAX_GROUP_MEMBERS)
          throw new AppError("conflict", `a group holds at most ${MAX_GROUP_MEMBERS} members`);
        return [
          {
            type: "GroupMemberAdded",
            data: {
              groupId,
              ownerId: group.ownerId,
              memberId: command.memberId,
              addedBy: command.actor.id,
              invitationId: null,
            },
          },
        ];
      }
      case "AddInvitedGroupMember": {
        // An invitation accepted after the group was deleted, or by someone who joined meanwhile, adds no one.
        if (state.status !== "active" || state.members.has(command.memberId) || state.members.size >= MAX_GROUP_MEMBERS)
          return [];
        const data = {
          groupId,
          ownerId: state.ownerId,
          memberId: command.memberId,
          addedBy: command.invitedBy,
          invitationId: command.invitationId,
        };
        return [{ type: "GroupMemberAdded", data }];
      }
      case "RemoveGroupMember": {
        const group = activeGroup(state);
        // Anyone may leave a group; taking someone else out is the managers'.
        if (command.memberId !== command.actor.id) requireManager(command.actor);
        if (!group.members.has(command.memberId))
          throw new AppError("not_found", "that user is not a member of this group");
        return [
          {
            type: "GroupMemberRemoved",
            data: { groupId, ownerId: group.ownerId, memberId: command.memberId, removedBy: command.actor.id },
          },
        ];
      }
      case "ChangeGroupRole": {
        const group = activeGroup(state);
        if (command.actor.id !== group.ownerId)
          throw new AppError("forbidden", "only the workspace owner gives a group a workspace role");
        if (group.role === command.role) return [];
        return [
          {
            type: "GroupRoleChanged",
            data: { groupId, ownerId: group.ownerId, role: command.role, changedBy: command.actor.id },
          },
        ];
      }
      case "LeaveGroup":
        if (state.status !== "active" || !state.members.has(command.memberId)) return [];
        return [
          {
            type: "GroupMemberRemoved",
            data: { groupId, ownerId: state.ownerId, memberId: command.memberId, removedBy: command.memberId },
          },
        ];
    }
  },
  evolve(state, event) {
    if (event.type === "GroupCreated") {
      return { status: "active", ownerId: event.data.ownerId, name: event.data.name, members: new Set(), role: null };
    }
    if (state.status === "absent") return state;
    switch (event.type) {
      case "GroupRenamed":
        return { ...state, name: event.data.name };
      case "GroupDeleted":
        return { ...state, status: "deleted" };
      case "GroupMemberAdded":
        return { ...state, members: new Set([...state.members, event.data.memberId]) };
      case "GroupMemberRemoved": {
        const members = new Set(state.members);
        members.delete(event.data.memberId);
        return { ...state, members };
      }
      case "GroupRoleChanged":
        return { ...state, role: event.data.role };
    }
  },
};
