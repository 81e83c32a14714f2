// Creating a share link of a page or folder (POST /pages/{id}/share-links, /folders/{id}/share-links and the MCP
// server's create_share_link): sharing needs admin on it. The secret is made here, answered once in the link's
// url and recorded only as its SHA-256; a password only as its scrypt hash.
import { randomUUID } from "node:crypto";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { shareLinkIdSchema, type ShareLinkId } from "../kernel/ids.ts";
import { atLeast } from "../kernel/permissions.ts";
import { visibleEntity } from "../sharing/shared-entity.ts";
import type { CreateShareLinkFields } from "./share-link.fields.ts";
import { hashSharePassword } from "./share-link-password.ts";
import { hashShareLinkSecret, newShareLinkSecret, shareLinkUrl } from "./share-link-secret.ts";
import { shareLinkCommands } from "./share-link.commands.ts";
import type { ShareLinkEntityType } from "./share-link.decider.ts";
import type { ShareLinkResource } from "./share-link.resource.ts";

export interface ShareLinkTarget {
  readonly entityType: ShareLinkEntityType;
  readonly entityId: string;
}

export interface CreatedShareLink {
  readonly id: ShareLinkId;
  readonly position: number | null;
  /** The link as created, its url carrying the secret: the only time it is shown. */
  readonly link: ShareLinkResource;
}

/** An expiry in the past would make a link dead on arrival: refused, as for tokens. */
export function futureExpiry(expiresAt: string | null, now: Date): string | null {
  if (expiresAt === null) return null;
  if (Date.parse(expiresAt) <= now.getTime())
    throw new AppError("validation_failed", "expiresAt: must be in the future");
  return new Date(expiresAt).toISOString();
}

export async function createShareLink(
  ports: WritePorts & { readonly publicBaseUrl: string | null },
  { principal, context }: Actor,
  { entityType, entityId }: ShareLinkTarget,
  fields: CreateShareLinkFields,
): Promise<CreatedShareLink> {
  const { permission } = await visibleEntity(ports.views, principal, entityType, entityId);
  if (!atLeast(permission, "admin")) throw new AppError("forbidden", `you may not share this ${entityType}`);
  const expiresAt = futureExpiry(fields.expiresAt, context.now);
  const linkId = shareLinkIdSchema.parse(randomUUID());
  const secret = newShareLinkSecret();
  const passwordHash = fields.password === null ? null : await hashSharePassword(fields.password);
  const command = {
    type: "CreateShareLink" as const,
    linkId,
    entityType,
    entityId,
    createdBy: context.actorId,
    secretHash: hashShareLinkSecret(secret),
    expiresAt,
    passwordHash,
    allowIndexing: fields.allowIndexing,
  };
  const { position } = await shareLinkCommands.handle(ports.eventStore, linkId, command, context);
  return {
    id: linkId,
    position,
    link: {
      id: linkId,
      url: shareLinkUrl(ports.publicBaseUrl, secret),
      entityType,
      entityId,
      expiresAt,
      passwordProtected: passwordHash !== null,
      allowIndexing: fields.allowIndexing,
      createdBy: context.actorId,
      createdAt: context.now.toISOString(),
      revokedAt: null,
      views: 0,
      lastViewedAt: null,
    },
  };
}
