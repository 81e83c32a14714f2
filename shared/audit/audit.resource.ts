// The audit entry clients see (GET /audit): who did what to which target, when, and through which API token or
// app, with the kind's typed detail.
import { z } from "zod";
import { auditDetails, auditTargetSchema, type AuditKind } from "./audit-entry.ts";
import type { AuditRecord } from "./audit.view.ts";

const base = z.object({
  id: z.string(),
  actorId: z.string(),
  tokenId: z.string().optional().describe("the API token the change was made through"),
  appId: z.string().optional().describe("the app (OAuth authorization) the change was made through"),
  at: z.string().describe("when it happened (ISO 8601, UTC)"),
  target: auditTargetSchema,
});
const entry = <K extends AuditKind>(kind: K) => base.extend({ kind: z.literal(kind), detail: auditDetails[kind] });

export const auditEntryResource = z
  .discriminatedUnion("kind", [
    entry("token.created"),
    entry("token.revoked"),
    entry("app.authorized"),
    entry("app.revoked"),
    entry("group.created"),
    entry("group.renamed"),
    entry("group.deleted"),
    entry("group.member_added"),
    entry("group.member_removed"),
    entry("group.role_changed"),
    entry("member.added"),
    entry("member.role_changed"),
    entry("member.removed"),
    entry("grant.given"),
    entry("grant.taken"),
    entry("share_link.created"),
    entry("share_link.changed"),
    entry("share_link.revoked"),
    entry("webhook.created"),
    entry("webhook.updated"),
    entry("webhook.disabled"),
    entry("webhook.deleted"),
    entry("account.erased"),
    entry("export"),
    entry("write"),
  ])
  .meta({
    id: "AuditEntry",
    description: "One entry of a workspace's audit trail: ids only, never names, addresses or secrets",
  });
export type AuditEntryResource = z.infer<typeof auditEntryResource>;

export const toAuditEntryResource = (record: AuditRecord): AuditEntryResource =>
  auditEntryResource.parse({
    id: record.id,
    kind: record.kind,
    actorId: record.actorId,
    ...(record.tokenId === null ? {} : { tokenId: record.tokenId }),
    ...(record.appId === null ? {} : { appId: record.appId }),
    at: record.at,
    target: { type: record.targetType, id: record.targetId },
    detail: record.detail,
  });
