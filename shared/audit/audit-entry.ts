// The audit trail's words: the kinds of entry it records, what each entry points at, and the small typed detail
// each kind carries. Details hold ids, roles, scopes and settings, never names, addresses, URLs or secrets.
import { z } from "zod";
import { scopeSchema } from "../kernel/scopes.ts";
import { grantablePermissionSchema, workspaceRoleSchema } from "../kernel/permissions.ts";
import { webhookEventsSchema } from "../webhooks/webhook-event-names.ts";

const AUDIT_KINDS = [
  "token.created",
  "token.revoked",
  "app.authorized",
  "app.revoked",
  "group.created",
  "group.renamed",
  "group.deleted",
  "group.member_added",
  "group.member_removed",
  "group.role_changed",
  "member.added",
  "member.role_changed",
  "member.removed",
  "grant.given",
  "grant.taken",
  "share_link.created",
  "share_link.changed",
  "share_link.revoked",
  "webhook.created",
  "webhook.updated",
  "webhook.disabled",
  "webhook.deleted",
  "account.erased",
  "export",
  "write",
] as const;
export const auditKindSchema = z.enum(AUDIT_KINDS);
export type AuditKind = z.infer<typeof auditKindSchema>;

export const auditTargetTypeSchema = z.enum([
  "token",
  "app",
  "group",
  "user",
  "page",
  "folder",
  "thread",
  "share_link",
  "webhook",
  "invitation",
  "workspace",
]);
export type AuditTargetType = z.infer<typeof auditTargetTypeSchema>;

export const auditTargetSchema = z.object({ type: auditTargetTypeSchema, id: z.string() });
export type AuditTarget = z.infer<typeof auditTargetSchema>;

const none = z.object({});
const grantee = z.object({ type: z.enum(["user", "group"]), id: z.uuid() });
const sharedEntity = z.object({ type: z.enum(["page", "folder"]), id: z.uuid() });
const linkSettings = {
  expiresAt: z.string().nullable(),
  passwordProtected: z.boolean(),
  allowIndexing: z.boolean(),
};

/** Each kind's detail. */
export const auditDetails = {
  "token.created": z.object({ scopes: z.array(scopeSchema), expiresAt: z.string().nullable() }),
  "token.revoked": none,
  "app.authorized": z.object({ scopes: z.array(scopeSchema) }),
  "app.revoked": z.object({ by: z.enum(["user", "authorization_server"]) }),
  "group.created": none,
  "group.renamed": none,
  "group.deleted": none,
  "group.member_added": z.object({ memberId: z.uuid() }),
  "group.member_removed": z.object({ memberId: z.uuid() }),
  "group.role_changed": z.object({ role: workspaceRoleSchema.nullable() }),
  "member.added": z.object({ role: workspaceRoleSchema }),
  "member.role_changed": z.object({ role: workspaceRoleSchema }),
  "member.removed": none,
  "grant.given": z.object({ grantee, permission: grantablePermissionSchema }),
  "grant.taken": z.object({ grantee }),
  "share_link.created": z.object({ entity: sharedEntity, ...linkSettings }),
  "share_link.changed": z.object({ entity: sharedEntity, ...linkSettings }),
  "share_link.revoked": z.object({ entity: sharedEntity }),
  "webhook.created": z.object({ folderId: z.uuid().nullable(), events: webhookEventsSchema }),
  "webhook.updated": z.object({ events: webhookEventsSchema, active: z.boolean() }),
  "webhook.disabled": none,
  "webhook.deleted": none,
  "account.erased": none,
  /** A vault export (GET /exports/obsidian): its target is the folder taken, or the caller's whole workspace. */
  export: none,
  /** A change made through an API token or an app: which event the log recorded. */
  write: z.object({ change: z.string() }),
} as const satisfies { [K in AuditKind]: z.ZodType };

export type AuditDetail<K extends AuditKind> = z.infer<(typeof auditDetails)[K]>;
