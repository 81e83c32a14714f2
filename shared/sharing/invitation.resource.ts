// The invitation record clients see (docs/guide/requests.md, Records), with whether the caller may resend or cancel it.
import { z } from "zod";
import { grantablePermissionSchema, workspaceRoleSchema } from "../kernel/permissions.ts";
import type { InvitationRecord } from "./invitations.view.ts";

export const invitationResource = z
  .object({
    id: z.uuid(),
    targetType: z.enum(["page", "folder", "workspace", "group"]),
    targetId: z.uuid(),
    email: z.string(),
    /** A permission for pages and folders, a role for workspaces, `member` for groups. */
    permission: z.union([grantablePermissionSchema, workspaceRoleSchema, z.literal("member")]),
    canManage: z.boolean(),
    deliveryStatus: z.enum(["pending", "sent", "failed"]),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "Invitation", description: "An invitation of an address without an account" });
export type InvitationResource = z.infer<typeof invitationResource>;

export function toInvitationResource(invitation: InvitationRecord, canManage: boolean): InvitationResource {
  return {
    id: invitation.id,
    targetType: invitation.access.targetType,
    targetId: invitation.access.targetId,
    email: invitation.email,
    permission: invitation.access.permission,
    canManage,
    deliveryStatus: invitation.deliveryStatus,
    expiresAt: invitation.expiresAt,
    createdAt: invitation.createdAt,
  };
}
