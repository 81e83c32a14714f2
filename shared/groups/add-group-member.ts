// Adding someone to a group by email: an existing account joins at once; an address without one is invited as
// workspace members are (shared/sharing/invite-address.ts), and joins when it registers.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { userIdSchema, type GroupId, type InvitationId } from "../kernel/ids.ts";
import { inviteAddress } from "../sharing/invite-address.ts";
import type { UserRecord } from "../users/users.view.ts";
import { groupCommands } from "./group.commands.ts";

export type AddGroupMemberOutcome =
  | { readonly kind: "added"; readonly user: UserRecord; readonly position: number | null }
  | { readonly kind: "invited"; readonly invitationId: InvitationId; readonly position: number | null };

export async function addGroupMember(
  ports: WritePorts,
  context: CommandContext,
  request: { groupId: GroupId; email: string; manages: boolean },
): Promise<AddGroupMemberOutcome> {
  const { groupId, email, manages } = request;
  const actor = { id: context.actorId, manages };
  const user = await ports.views.users.getByEmail(email);
  if (!user) {
    // The invitation decider refuses an actor who does not manage the group ("admin" stands for that); a group
    // deleted before the address registers adds no one when it does (AddInvitedGroupMember).
    const access = { targetType: "group" as const, targetId: groupId, permission: "member" as const };
    const invited = await inviteAddress(ports.eventStore, context, {
      email,
      access,
      actor: { id: context.actorId, permission: manages ? "admin" : "view" },
    });
    return { kind: "invited", ...invited };
  }
  const memberId = userIdSchema.parse(user.id);
  const result = await groupCommands.handle(
    ports.eventStore,
    groupId,
    { type: "AddGroupMember", groupId, memberId, actor },
    context,
  );
  return { kind: "added", user, position: result.position };
}
