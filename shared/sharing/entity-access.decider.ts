// Grants on one page or folder: who holds which permission there, given by sharing or by an accepted
// invitation, and taken back by revocation; a group holds a grant the same way, for all its members. One stream
// per entity, so re-sharing updates the one grant.
import { z } from "zod";
import type { EntityType } from "../access/access.view.ts";
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
import { atLeast, grantablePermissionSchema, type GrantablePermission } from "../kernel/permissions.ts";
import { assertMayShare, type Actor } from "./share-rules.ts";

export const entityTypeSchema = z.enum(["page", "folder"]) satisfies z.ZodType<EntityType>;

export const entityAccessEventSchemas = [
  z.object({
    type: z.literal("AccessGranted"),
    data: z.object({
      entityType: entityTypeSchema,
      entityId: z.uuid(),
      userId: userIdSchema,
      permission: grantablePermissionSchema,
      grantedBy: userIdSchema,
      /** Set when the grant comes from accepting this invitation. */
      invitationId: invitationIdSchema.nullable(),
    }),
  }),
  z.object({
    type: z.literal("AccessRevoked"),
    data: z.object({ entityType: entityTypeSchema, entityId: z.uuid(), userId: userIdSchema, revokedBy: userIdSchema }),
  }),
  z.object({
    type: z.literal("GroupAccessGranted"),
    data: z.object({
      entityType: entityTypeSchema,
      entityId: z.uuid(),
      groupId: groupIdSchema,
      permission: grantablePermissionSchema,
      grantedBy: userIdSchema,
    }),
  }),
  z.object({
    type: z.literal("GroupAccessRevoked"),
    data: z.object({
      entityType: entityTypeSchema,
      entityId: z.uuid(),
      groupId: groupIdSchema,
      revokedBy: userIdSchema,
    }),
  }),
] as const;
export type EntityAccessEvent = z.infer<(typeof entityAccessEventSchemas)[number]>;

/** A page or folder as sharing sees it. */
export interface EntityRef {
  readonly type: EntityType;
  readonly id: string;
}

export type EntityAccessCommand =
  | {
      type: "GrantAccess";
      entity: EntityRef & { ownerId: string };
      userId: UserId;
      permission: GrantablePermission;
      actor: Actor;
    }
  | {
      type: "GrantInvitedAccess";
      entity: EntityRef;
      userId: UserId;
      permission: GrantablePermission;
      invitedBy: UserId;
      invitationId: InvitationId;
    }
  | { type: "RevokeAccess"; entity: EntityRef; userId: UserId; actor: Actor }
  | { type: "GrantGroupAccess"; entity: EntityRef; groupId: GroupId; permission: GrantablePermission; actor: Actor }
  | { type: "RevokeGroupAccess"; entity: EntityRef; groupId: GroupId; actor: Actor };

export interface EntityAccessState {
  /** user id → the permission granted directly on this entity */
  readonly grants: Readonly<Record<string, GrantablePermission>>;
  /** group id → the permission granted to the group on this entity */
  readonly groupGrants: Readonly<Record<string, GrantablePermission>>;
}

export const accessStream = (entity: EntityRef): string => `access-${entity.type}-${entity.id}`;

/** A group's grant follows the same sharing rules as a person's; the route has checked the actor may see the group. */
function decideGroupGrant(
  command: Extract<EntityAccessCommand, { type: "GrantGroupAccess" | "RevokeGroupAccess" }>,
  state: EntityAccessState,
): EntityAccessEvent[] {
  const { entity, groupId } = command;
  const current = state.groupGrants[groupId] ?? null;
  if (command.type === "GrantGroupAccess") {
    assertMayShare(command.actor.permission, current, command.permission, entity.type);
    if (current === command.permission) return [];
    return [
      {
        type: "GroupAccessGranted",
        data: {
          entityType: entity.type,
          entityId: entity.id,
          groupId,
          permission: command.permission,
          grantedBy: command.actor.id,
        },
      },
    ];
  }
  if (current === null) throw new AppError("not_found", `that group has no grant on this ${entity.type}`);
  assertMayShare(command.actor.permission, current, null, entity.type);
  return [
    {
      type: "GroupAccessRevoked",
      data: { entityType: entity.type, entityId: entity.id, groupId, revokedBy: command.actor.id },
    },
  ];
}

export const entityAccessDecider: Decider<EntityAccessCommand, EntityAccessState, EntityAccessEvent> = {
  initialState: { grants: {}, groupGrants: {} },
  decide(command, state) {
    const { entity } = command;
    if (command.type === "GrantGroupAccess" || command.type === "RevokeGroupAccess")
      return decideGroupGrant(command, state);
    const { userId } = command;
    const current = state.grants[userId] ?? null;
    switch (command.type) {
      case "GrantAccess": {
        assertMayShare(command.actor.permission, current, command.permission, entity.type);
        if (userId === command.entity.ownerId)
          throw new AppError("validation_failed", `email: that address owns this ${entity.type}`);
        if (userId === command.actor.id)
          throw new AppError("validation_failed", "email: you cannot share with yourself");
        if (current === command.permission) return [];
        const data = {
          entityType: entity.type,
          entityId: entity.id,
          userId,
          permission: command.permission,
          grantedBy: command.actor.id,
          invitationId: null,
        };
        return [{ type: "AccessGranted", data }];
      }
      case "GrantInvitedAccess": {
        // Accepting an invitation never lowers access the user already holds.
        if (atLeast(current, command.permission)) return [];
        const data = {
          entityType: entity.type,
          entityId: entity.id,
          userId,
          permission: command.permission,
          grantedBy: command.invitedBy,
          invitationId: command.invitationId,
        };
        return [{ type: "AccessGranted", data }];
      }
      case "RevokeAccess": {
        if (current === null) throw new AppError("not_found", `that user has no grant on this ${entity.type}`);
        // Anyone may give up their own grant; taking someone else's follows the sharing rules.
        if (userId !== command.actor.id) assertMayShare(command.actor.permission, current, null, entity.type);
        return [
          {
            type: "AccessRevoked",
            data: { entityType: entity.type, entityId: entity.id, userId, revokedBy: command.actor.id },
          },
        ];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "AccessGranted":
        return { ...state, grants: { ...state.grants, [event.data.userId]: event.data.permission } };
      case "AccessRevoked": {
        const { [event.data.userId]: _removed, ...grants } = state.grants;
        return { ...state, grants };
      }
      case "GroupAccessGranted":
        return { ...state, groupGrants: { ...state.groupGrants, [event.data.groupId]: event.data.permission } };
      case "GroupAccessRevoked": {
        const { [event.data.groupId]: _removed, ...groupGrants } = state.groupGrants;
        return { ...state, groupGrants };
      }
    }
  },
};
