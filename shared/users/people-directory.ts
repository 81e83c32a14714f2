// The people a caller can find: those who share a workspace with them (its owner and its members, for every
// workspace they own or belong to), never anyone else. Built on the workspace memberships of the access read
// model, which is all a directory may disclose: a person outside the caller's workspaces cannot be found.
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { UserRecord } from "./users.view.ts";

export interface Person {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly image: string | null;
}

/** Everyone sharing a workspace with `userId` (not themselves), by name, optionally those whose name or address contains `query`. */
export async function peopleSharingAWorkspaceWith(
  views: ReadModels,
  userId: string,
  query: string | null,
): Promise<Person[]> {
  const owners = new Set<string>([
    userId,
    ...(await views.access.membershipsOf(userId)).map((membership) => membership.ownerId),
  ]);
  const ids = new Set<string>(owners);
  for (const ownerId of owners) for (const member of await views.access.membersOf(ownerId)) ids.add(member.memberId);
  ids.delete(userId);
  const users = await views.users.getMany([...ids]);
  const needle = query?.toLowerCase() ?? null;
  const matches = (user: UserRecord) =>
    needle === null || user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle);
  return [...users.values()]
    .filter(matches)
    .map((user) => ({ id: user.id, name: user.name, email: user.email, image: user.image }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
