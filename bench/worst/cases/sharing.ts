// Worst cases of sharing: workspace members, grants on pages and folders to people and groups, and invitations.
import { callerOf } from "../fixture/calls.ts";
import { get, idOf, json, many, newEmail, send, type WorstCases } from "./worst-case.ts";

export const sharingCases: WorstCases = {
  "GET /api/v1/shares/workspace": {
    input: "members, invitations, workspaces joined",
    request: (w) => get(w.owner, "/shares/workspace"),
  },
  "POST /api/v1/shares/workspace/members": {
    input: "invite an address without an account",
    request: (w) => send(w.owner, "POST", "/shares/workspace/members", { email: newEmail(), role: "viewer" }),
  },
  "DELETE /api/v1/shares/workspace/members/{memberId}": {
    input: "remove a member",
    prepare: (w, n) =>
      many(n, async () => {
        const member = await callerOf(w.api, w.secret, "member");
        await json(w, w.stranger, "POST", "/shares/workspace/members", { email: member.email, role: "viewer" });
        return member.id;
      }),
    request: (w, id) => send(w.stranger, "DELETE", `/shares/workspace/members/${id}`),
  },
  "DELETE /api/v1/shares/workspace/groups/{groupId}": {
    input: "take a group's workspace role away (every member's access changes in the same batch)",
    prepare: (w, n) =>
      many(n, async (i) => {
        const groupId = idOf((await json(w, w.stranger, "POST", "/groups", { name: `Role ${i}` })).body);
        await json(w, w.stranger, "POST", "/shares/workspace/members", { groupId, role: "viewer" });
        return groupId;
      }),
    request: (w, id) => send(w.stranger, "DELETE", `/shares/workspace/groups/${id}`),
  },
  "DELETE /api/v1/shares/entity/{entityType}/{entityId}/groups/{groupId}": {
    input: "revoke a group's grant",
    prepare: (w, n) =>
      many(n, async (i) => {
        const groupId = idOf((await json(w, w.stranger, "POST", "/groups", { name: `Revoked ${i}` })).body);
        await json(w, w.stranger, "POST", `/shares/entity/page/${w.strangerPageId}/grants`, {
          groupId,
          permission: "view",
        });
        return groupId;
      }),
    request: (w, id) => send(w.stranger, "DELETE", `/shares/entity/page/${w.strangerPageId}/groups/${id}`),
  },
  "GET /api/v1/shares/entity/{entityType}/{entityId}": {
    input: "a page's grants",
    request: (w) => get(w.stranger, `/shares/entity/page/${w.strangerPageId}`),
  },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/grants": {
    input: "give a folder to a group of 1,000 members (each notified, each member's access changes)",
    prepare: (w, n) =>
      many(n, async (i) => idOf((await json(w, w.owner, "POST", "/folders", { name: `Given ${i}` })).body)),
    request: (w, folderId) =>
      send(w.owner, "POST", `/shares/entity/folder/${folderId}/grants`, {
        groupId: w.crowdGroupId,
        permission: "view",
      }),
  },
  "DELETE /api/v1/shares/entity/{entityType}/{entityId}/grants/{userId}": {
    input: "revoke a grant",
    prepare: (w, n) =>
      many(n, async () => {
        const grantee = await callerOf(w.api, w.secret, "grantee");
        await json(w, w.stranger, "POST", `/shares/entity/page/${w.strangerPageId}/grants`, {
          email: grantee.email,
          permission: "view",
        });
        return grantee.id;
      }),
    request: (w, id) => send(w.stranger, "DELETE", `/shares/entity/page/${w.strangerPageId}/grants/${id}`),
  },
  "POST /api/v1/shares/workspace/invitations/by-email/{email}/resend": {
    input: "resend a pending invitation",
    prepare: (w, n) =>
      many(n, async () => {
        const email = newEmail();
        await json(w, w.owner, "POST", "/shares/workspace/members", { email, role: "viewer" });
        return email;
      }),
    request: (w, email) =>
      send(w.owner, "POST", `/shares/workspace/invitations/by-email/${encodeURIComponent(email)}/resend`),
  },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/invitations/by-email/{email}/resend": {
    input: "resend a pending page invitation",
    prepare: (w, n) =>
      many(n, async () => {
        const email = newEmail();
        await json(w, w.owner, "POST", `/shares/entity/page/${w.bigPageId}/grants`, { email, permission: "view" });
        return email;
      }),
    request: (w, email) =>
      send(
        w.owner,
        "POST",
        `/shares/entity/page/${w.bigPageId}/invitations/by-email/${encodeURIComponent(email)}/resend`,
      ),
  },
  "POST /api/v1/shares/invitations/{invitationId}/resend": {
    input: "resend an invitation by id",
    prepare: (w, n) =>
      many(n, async () =>
        idOf((await json(w, w.owner, "POST", "/shares/workspace/members", { email: newEmail(), role: "viewer" })).body),
      ),
    request: (w, id) => send(w.owner, "POST", `/shares/invitations/${id}/resend`),
  },
  "DELETE /api/v1/shares/invitations/{invitationId}": {
    input: "cancel an invitation",
    prepare: (w, n) =>
      many(n, async () =>
        idOf((await json(w, w.owner, "POST", "/shares/workspace/members", { email: newEmail(), role: "viewer" })).body),
      ),
    request: (w, id) => send(w.owner, "DELETE", `/shares/invitations/${id}`),
  },
};
