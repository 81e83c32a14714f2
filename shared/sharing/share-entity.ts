// Sharing a page or folder by email: an existing account gets the grant at once; an address without one is
// invited, and gets the grant when it registers.
import type { Dependencies } from "../app/dependencies.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { runCommand } from "../commands/run-command.ts";
import { eventGuard } from "../events.ts";
import { userIdSchema, type InvitationId } from "../kernel/ids.ts";
import type { GrantablePermission, Permission } from "../kernel/permissions.ts";
import type { UserRecord } from "../users/users.view.ts";
import { accessStream, entityAccessDecider, entityAccessEventSchemas, type EntityAccessEvent } from "./entity-access.decider.ts";
import { inviteAddress } from "./invite-address.ts";
import type { SharedEntity } from "./shared-entity.ts";

const isEntityAccessEvent = eventGuard<EntityAccessEvent>(entityAccessEventSchemas);

export type ShareOutcome =
  | { readonly kind: "granted"; readonly user: UserRecord; readonly position: number | null }
  | { readonly kind: "invited"; readonly invitationId: InvitationId; readonly position: number | null };

export async function shareEntity(
  deps: Dependencies,
  context: CommandContext,
  request: { entity: SharedEntity; actorPermission: Permission; email: string; permission: GrantablePermission },
): Promise<ShareOutcome> {
  const { entity, email, permission } = request;
  const actor = { id: context.actorId, permission: request.actorPermission };
  const user = await deps.readStore.users.getByEmail(email);
  if (!user) {
    const invited = await inviteAddress(deps, context, { email, access: { targetType: entity.type, targetId: entity.id, permission }, actor });
    return { kind: "invited", ...invited };
  }
  const result = await runCommand(deps.eventStore, accessStream(entity), entityAccessDecider, isEntityAccessEvent, {
    type: "GrantAccess",
    entity,
    userId: userIdSchema.parse(user.id),
    permission,
    actor,
  }, context);
  return { kind: "granted", user, position: result.position };
}
