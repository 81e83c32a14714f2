// A caller's access context for domain tests: user "me" with no roles or grants, unless the test gives some.
import type { AccessContext } from "../../shared/access/access-context.ts";

export const accessContext = (over: Partial<AccessContext> = {}): AccessContext => ({
  userId: "me",
  workspaceRoles: new Map(),
  folderGrants: new Map(),
  pageGrants: new Map(),
  groupIds: new Set(),
  ...over,
});
