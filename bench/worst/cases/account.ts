// Worst cases of the caller's own account: who they are, the people they can name, their audit trail, and
// erasing the account.
import { z } from "zod";
import type { Worst } from "../fixture.ts";
import { callerOf } from "../fixture/calls.ts";
import { api, get, json, many, type WorstCases } from "./worst-case.ts";

/** A user with a workspace of 200 pages, signed in: what erasing an account purges. */
async function userToErase(w: Worst): Promise<string> {
  const user = await callerOf(w.api, w.secret, "erased");
  await json(w, user, "POST", "/imports/obsidian", {
    files: Array.from({ length: 200 }, (_, i) => ({
      path: `Mine/Note ${i}.md`,
      content: `# Note ${i}\n\n${"Private words. ".repeat(100)}`,
    })),
  });
  return JSON.stringify({ cookie: user.cookie, email: user.email });
}
const erasable = z.object({ cookie: z.string(), email: z.string() });

export const accountCases: WorstCases = {
  "GET /api/v1/me": { input: "a session", request: (w) => get(w.owner, "/me") },
  "GET /api/v1/users": {
    input: "a one-letter prefix over the owner's whole circle (members and grants), limit 50",
    request: (w) => get(w.owner, "/users?query=a&limit=50"),
  },
  "GET /api/v1/audit": {
    input:
      "the owner's trail of every share, token and webhook the fixture made, one actor's entries from the first instant, limit 100 (each entry's detail checked)",
    request: (w) => get(w.owner, `/audit?limit=100&actorId=${w.owner.id}&after=1970-01-01T00:00:00Z`),
  },
  "DELETE /api/v1/me": {
    input: "erase an account whose workspace holds 200 pages",
    maxIterations: 2,
    prepare: (w, n) => many(n, () => userToErase(w)),
    request: (_w, prepared) => {
      const user = erasable.parse(JSON.parse(prepared));
      return {
        method: "DELETE",
        path: api("/me"),
        headers: { cookie: user.cookie, "content-type": "application/json" },
        body: JSON.stringify({ confirm: user.email }),
      };
    },
  },
};
