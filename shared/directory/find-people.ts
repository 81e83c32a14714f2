// The people directory (GET /users?query=): people who share a workspace with the caller (their workspace's
// members, the owners and members of the workspaces they joined, whoever they share with or who shares with
// them), found by the start of their name, of a word of it, or of their address where the API already shows the
// caller that address. Nobody else can be found, and a query matching no one in the circle reads only the circle.
import type { Principal } from "../auth/principal.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { Person } from "./directory.view.ts";

export async function findPeople(
  views: ReadModels,
  principal: Principal,
  query: { query: string; limit: number },
): Promise<{ data: Person[] }> {
  const context = await views.access.contextFor(principal.user.id);
  const prefix = query.query.trim().toLowerCase();
  const data = await views.directory.search({
    viewerId: principal.user.id,
    joinedWorkspaces: [...context.workspaceRoles.keys()],
    prefix,
    limit: query.limit,
  });
  return { data };
}
