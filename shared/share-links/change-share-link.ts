// Changing a live share link's expiry, password or indexing (PATCH /share-links/{id}): whoever may share its page
// or folder now (manage-share-link.ts); a revoked link is gone.
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import type { ShareLinkId } from "../kernel/ids.ts";
import { futureExpiry } from "./create-share-link.ts";
import { managedShareLink } from "./manage-share-link.ts";
import type { ChangeShareLinkFields } from "./share-link.fields.ts";
import { hashSharePassword } from "./share-link-password.ts";
import { shareLinkCommands } from "./share-link.commands.ts";
import type { PasswordChange } from "./share-link.decider.ts";
import { toShareLinkResource, type ShareLinkResource } from "./share-link.resource.ts";

export interface ChangedShareLink {
  readonly position: number | null;
  /** The link as it was read, with the settings the write side now holds. */
  readonly asWritten: () => ShareLinkResource;
}

export async function changeShareLink(
  ports: WritePorts,
  { principal, context }: Actor,
  linkId: ShareLinkId,
  fields: ChangeShareLinkFields,
): Promise<ChangedShareLink> {
  const link = await managedShareLink(ports.views, principal, linkId, "change");
  if (link.revokedAt !== null) throw new AppError("not_found", "share link not found");
  const { expiresAt, password, allowIndexing } = fields;
  const passwordChange: PasswordChange =
    password === undefined
      ? { kind: "keep" }
      : password === null
        ? { kind: "remove" }
        : { kind: "set", hash: await hashSharePassword(password) };
  const command = {
    type: "ChangeShareLink" as const,
    linkId,
    password: passwordChange,
    ...(expiresAt === undefined ? {} : { expiresAt: futureExpiry(expiresAt, context.now) }),
    ...(allowIndexing === undefined ? {} : { allowIndexing }),
  };
  const { position, state } = await shareLinkCommands.handle(ports.eventStore, linkId, command, context);
  return {
    position,
    asWritten: () => {
      if (!state.exists) throw new AppError("not_found", "share link not found");
      return {
        ...toShareLinkResource(link),
        expiresAt: state.expiresAt,
        passwordProtected: state.passwordHash !== null,
        allowIndexing: state.allowIndexing,
      };
    },
  };
}
