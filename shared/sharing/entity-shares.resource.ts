// GET /shares/entity/{entityType}/{entityId}: the direct grants on a page or folder, its groups' grants (a group
// as a whole, named only to who may see it) and its pending invitations.
import { z } from "zod";
import type { GrantRecord, GroupGrantRecord } from "../access/access.view.ts";
import { grantablePermissionSchema, type Permission } from "../kernel/permissions.ts";
import type { UserRecord } from "../users/users.view.ts";
import { entityTypeSchema } from "./entity-access.decider.ts";
import { invitationResource, toInvitationResource } from "./invitation.resource.ts";
import type { InvitationRecord } from "./invitations.view.ts";
import { mayManageEntityInvitation } from "./share-rules.ts";
import type { SharedEntity } from "./shared-entity.ts";

const grantResource = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    image: z.string().nullable(),
    permission: grantablePermissionSchema,
    grantedBy: z.uuid(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Grant", description: "A user's direct grant on a page or folder" });

const groupGrantResource = z
  .object({
    groupId: z.uuid(),
    /** The group's name when the caller may see the group (its managers and members); null otherwise. */
    name: z.string().nullable(),
    permission: grantablePermissionSchema,
    grantedBy: z.uuid(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: "GroupGrant",
    description: "A group's grant on a page or folder: the group as a whole, never its members",
  });

export const entitySharesResource = z
  .object({
    entityType: entityTypeSchema,
    entityId: z.uuid(),
    ownerId: z.uuid(),
    grants: z.array(grantResource),
    groupGrants: z.array(groupGrantResource),
    pendingInvitations: z.array(invitationResource),
  })
  .meta({ id: "EntitySharing", description: "Who has access to a page or folder" });
export type EntitySharesResource = z.infer<typeof entitySharesResource>;

export function toEntityShares(
  entity: SharedEntity,
  callerPermission: Permission,
  grants: readonly GrantRecord[],
  invitations: readonly InvitationRecord[],
  users: ReadonlyMap<string, UserRecord>,
  /** The groups granted here, each with the name the caller may be shown (null: they may not see the group). */
  groupGrants: ReadonlyArray<{ readonly grant: GroupGrantRecord; readonly name: string | null }>,
): EntitySharesResource {
  return {
    entityType: entity.type,
    entityId: entity.id,
    ownerId: entity.ownerId,
    grants: grants.map((grant) => {
      const user = users.get(grant.userId);
      return {
        userId: grant.userId,
        name: user?.name ?? "",
        email: user?.email ?? "",
        image: user?.image ?? null,
        permission: grant.permission,
        grantedBy: grant.grantedBy,
        createdAt: grant.createdAt,
        updatedAt: grant.updatedAt,
      };
    }),
    groupGrants: groupGrants.map(({ grant, name }) => ({
      groupId: grant.groupId,
      name,
      permission: grant.permission,
      grantedBy: grant.grantedBy,
      createdAt: grant.createdAt,
      updatedAt: grant.updatedAt,
    })),
    pendingInvitations: invitations.flatMap((invitation) =>
      invitation.access.targetType === "page" || invitation.access.targetType === "folder"
        ? [toInvitationResource(invitation, mayManageEntityInvitation(callerPermission, invitation.access.permission))]
        : [],
    ),
  };
}
