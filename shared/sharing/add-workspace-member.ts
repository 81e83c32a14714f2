// Adding a member to the caller's own workspace by email: an existing account joins at once; an address
// without one is invited, and joins when it registers.
import { randomUUID } from "node:crypto";
import type { Dependencies } from "../app/dependencies.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { runCommand } from "../commands/run-command.ts";
import { eventGuard } from "../events.ts";
import { userIdSchema, type InvitationId } from "../kernel/ids.ts";
import type { WorkspaceRole } from "../kernel/permissions.ts";
import type { UserRecord } from "../users/users.view.ts";
import { inviteAddress } from "./invite-address.ts";
import { workspaceDecider, workspaceEventSchemas, workspaceStream, type WorkspaceEvent } from "./workspace.decider.ts";

const isWorkspaceEvent = eventGuard<WorkspaceEvent>(workspaceEventSchemas);

export type AddMemberOutcome =
  | { readonly kind: "added"; readonly user: UserRecord; readonly position: number | null }
  | { readonly kind: "invited"; readonly invitationId: InvitationId; readonly position: number | null };

export async function addWorkspaceMember(deps: Dependencies, context: CommandContext, request: { email: string; role: WorkspaceRole }): Promise<AddMemberOutcome> {
  const ownerId = context.actorId;
  const user = await deps.readStore.users.getByEmail(request.email);
  if (!user) {
    const access = { targetType: "workspace" as const, targetId: ownerId, permission: request.role };
    const invited = await inviteAddress(deps, context, { email: request.email, access, actor: { id: ownerId, permission: "owner" } });
    return { kind: "invited", ...invited };
  }
  const result = await runCommand(deps.eventStore, workspaceStream(ownerId), workspaceDecider, isWorkspaceEvent, {
    type: "AddMember",
    ownerId,
    memberId: userIdSchema.parse(user.id),
    membershipId: randomUUID(),
    role: request.role,
    actorId: ownerId,
  }, context);
  return { kind: "added", user, position: result.position };
}
