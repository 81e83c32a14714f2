// Adding a member to the caller's own workspace by email: an existing account joins at once; an address
// without one is invited, and joins when it registers.
import { randomUUID } from "node:crypto";
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { userIdSchema, type InvitationId } from "../kernel/ids.ts";
import type { WorkspaceRole } from "../kernel/permissions.ts";
import type { UserRecord } from "../users/users.view.ts";
import { inviteAddress } from "./invite-address.ts";
import { workspaceCommands } from "./sharing.commands.ts";

export type AddMemberOutcome =
  | { readonly kind: "added"; readonly user: UserRecord; readonly position: number | null }
  | { readonly kind: "invited"; readonly invitationId: InvitationId; readonly position: number | null };

export async function addWorkspaceMember(
  ports: WritePorts,
  context: CommandContext,
  request: { email: string; role: WorkspaceRole },
): Promise<AddMemberOutcome> {
  const ownerId = context.actorId;
  const user = await ports.views.users.getByEmail(request.email);
  if (!user) {
    const access = { targetType: "workspace" as const, targetId: ownerId, permission: request.role };
    const invited = await inviteAddress(ports.eventStore, context, {
      email: request.email,
      access,
      actor: { id: ownerId, permission: "owner" },
    });
    return { kind: "invited", ...invited };
  }
  const result = await workspaceCommands.handle(
    ports.eventStore,
    ownerId,
    {
      type: "AddMember",
      ownerId,
      memberId: userIdSchema.parse(user.id),
      membershipId: randomUUID(),
      role: request.role,
      actorId: ownerId,
    },
    context,
  );
  return { kind: "added", user, position: result.position };
}
