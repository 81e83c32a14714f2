// Sharing a page or folder by email: an existing account gets the grant at once; an address without one is
// invited, and gets the grant when it registers.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { userIdSchema, type InvitationId } from "../kernel/ids.ts";
import type { GrantablePermission, Permission } from "../kernel/permissions.ts";
import type { UserRecord } from "../users/users.view.ts";
import { inviteAddress } from "./invite-address.ts";
import type { SharedEntity } from "./shared-entity.ts";
import { entityAccessCommands } from "./sharing.commands.ts";

export type ShareOutcome =
  | { readonly kind: "granted"; readonly user: UserRecord; readonly position: number | null }
  | { readonly kind: "invited"; readonly invitationId: InvitationId; readonly position: number | null };

export async function shareEntity(
  ports: WritePorts,
  context: CommandContext,
  request: { entity: SharedEntity; actorPermission: Permission; email: string; permission: GrantablePermission },
): Promise<ShareOutcome> {
  const { entity, email, permission } = request;
  const actor = { id: context.actorId, permission: request.actorPermission };
  const user = await ports.views.users.getByEmail(email);
  if (!user) {
    const invited = await inviteAddress(ports.eventStore, context, {
      email,
      access: { targetType: entity.type, targetId: entity.id, permission },
      actor,
    });
    return { kind: "invited", ...invited };
  }
  const result = await entityAccessCommands.handle(
    ports.eventStore,
    entity,
    {
      type: "GrantAccess",
      entity,
      userId: userIdSchema.parse(user.id),
      permission,
      actor,
    },
    context,
  );
  return { kind: "granted", user, position: result.position };
}
