// The benchmark reader's access, given through the public API as a user would: a grant on one top-level folder
// of each of 20 owners and a viewer's role in the workspaces of 3 others.
import { mintSession } from "../shared/auth/session-verifier.ts";
import type { Seeded, SeedUser } from "./seed.ts";

export async function sessionCookie(
  secret: string,
  user: Pick<SeedUser, "email" | "name"> & { id: string },
): Promise<string> {
  return `app-auth.session_token=${await mintSession(secret, { sub: user.id, email: user.email, name: user.name })}`;
}

/** Gives the reader their grants and roles; answers how many of the 23 were applied. */
export async function grantReaderAccess(api: string, secret: string, seeded: Seeded): Promise<number> {
  let applied = 0;
  for (const [index, owner] of seeded.owners.entries()) {
    const cookie = await sessionCookie(secret, owner);
    const shared = seeded.sharedFolders.find((f) => f.ownerId === owner.id);
    const requests =
      index >= 20 && index < 23
        ? [{ path: "/shares/workspace/members", body: { email: seeded.reader.email, role: "viewer" } }]
        : shared
          ? [
              {
                path: `/shares/entity/folder/${shared.folderId}/grants`,
                body: { email: seeded.reader.email, permission: "view" },
              },
            ]
          : [];
    for (const request of requests) {
      const reply = await fetch(`${api}${request.path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify(request.body),
      });
      if (reply.ok) applied += 1;
    }
  }
  return applied;
}
