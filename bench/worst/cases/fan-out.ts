// Rows of their own, not operations of the reference: a grant or a membership whose projection fans out into
// the per-user listing, a row per page.
import { callerOf } from "../fixture/calls.ts";
import { GROUP_FOLDERS } from "../fixture/folders.ts";
import { many, send, type WorstCases } from "./worst-case.ts";

export const fanOutCases: WorstCases = {
  "POST /api/v1/shares/entity/{entityType}/{entityId}/grants (fan-out)": {
    input:
      "grant a user a folder holding the fixture's folder pages (a listing row per page, in the projection's batch)",
    prepare: (w, n) => many(n, async () => (await callerOf(w.api, w.secret, "reader")).email),
    request: (w, email) =>
      send(w.owner, "POST", `/shares/entity/folder/${w.bulkFolderId}/grants`, { email, permission: "view" }),
  },
  "POST /api/v1/groups/{groupId}/members (fan-out)": {
    input: `add a member to a group holding ${GROUP_FOLDERS} folders of the workspace (a listing row per page below them)`,
    prepare: (w, n) => many(n, async () => (await callerOf(w.api, w.secret, "joiner")).email),
    request: (w, email) => send(w.owner, "POST", `/groups/${w.folderGroupId}/members`, { email }),
  },
};
