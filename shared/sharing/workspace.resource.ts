// GET /shares/workspace (docs/guide/requests.md, Records; docs/guide/sharing.md): the caller's own workspace (members, pending invitations) and the
// workspaces the caller joined.
import { z } from "zod";
import type { MemberRecord } from "../access/access.view.ts";
import { workspaceRoleSchema } from "../kernel/permissions.ts";
import type { UserRecord } from "../users/users.view.ts";
import { invitationResource, toInvitationResource } from "./invitation.resource.ts";
import type { InvitationRecord } from "./invitations.view.ts";

const workspaceMemberResource = z
  .object({
    id: z.uuid(),
    workspaceOwnerId: z.uuid(),
    memberId: z.uuid(),
    memberName: z.string(),
    memberEmail: z.string(),
    memberAvatarUrl: z.string().nullable(),
    role: workspaceRoleSchema,
    createdAt: z.string(),
  })
  .meta({ id: "WorkspaceMember", description: "A member of the caller's workspace" });

const membershipResource = z
  .object({ ownerId: z.uuid(), ownerName: z.string(), role: workspaceRoleSchema, joinedAt: z.string() })
  .meta({ id: "Membership", description: "A workspace the caller joined" });

export const workspaceSharesResource = z
  .object({
    ownerId: z.uuid(),
    ownerName: z.string(),
    members: z.array(workspaceMemberResource),
    memberships: z.array(membershipResource),
    pendingInvitations: z.array(invitationResource),
  })
  .meta({
    id: "WorkspaceSharing",
    description: "The caller's workspace: members, pending invitations, and the workspaces they joined",
  });
export type WorkspaceSharesResource = z.infer<typeof workspaceSharesResource>;

export function toWorkspaceShares(
  owner: UserRecord,
  members: readonly MemberRecord[],
  memberships: readonly MemberRecord[],
  invitations: readonly InvitationRecord[],
  users: ReadonlyMap<string, UserRecord>,
): WorkspaceSharesResource {
  return {
    ownerId: owner.id,
    ownerName: owner.name,
    members: members.map((member) => {
      const user = users.get(member.memberId);
      return {
        id: member.id,
        workspaceOwnerId: member.ownerId,
        memberId: member.memberId,
        memberName: user?.name ?? "",
        memberEmail: user?.email ?? "",
        memberAvatarUrl: user?.image ?? null,
        role: member.role,
        createdAt: member.createdAt,
      };
    }),
    memberships: memberships.map((membership) => ({
      ownerId: membership.ownerId,
      ownerName: users.get(membership.ownerId)?.name ?? "",
      role: membership.role,
      joinedAt: membership.createdAt,
    })),
    // The caller owns this workspace, so they manage every invitation to it.
    pendingInvitations: invitations.map((invitation) => toInvitationResource(invitation, true)),
  };
}
