// Worst cases of groups and their members.
import { callerOf } from "../fixture/calls.ts";
import { get, idOf, json, many, newEmail, send, type WorstCases } from "./worst-case.ts";

export const groupCases: WorstCases = {
  "POST /api/v1/groups": {
    input: "create a group",
    request: (w, _p, i) => send(w.stranger, "POST", "/groups", { name: `Group ${i}` }),
  },
  "GET /api/v1/groups": { input: "a page of 100 groups", request: (w) => get(w.stranger, "/groups?limit=100") },
  "GET /api/v1/groups/{groupId}": {
    input: "a group",
    prepare: (w, n) =>
      many(n, async (i) => idOf((await json(w, w.stranger, "POST", "/groups", { name: `Read ${i}` })).body)),
    request: (w, id) => get(w.stranger, `/groups/${id}`),
  },
  "PATCH /api/v1/groups/{groupId}": {
    input: "rename a group",
    prepare: (w, n) =>
      many(n, async (i) => idOf((await json(w, w.stranger, "POST", "/groups", { name: `Renamed ${i}` })).body)),
    request: (w, id, i) => send(w.stranger, "PATCH", `/groups/${id}`, { name: `Renamed again ${i}` }),
  },
  "DELETE /api/v1/groups/{groupId}": {
    input: "delete a group with a member and a grant (every member's access changes in the same batch)",
    prepare: (w, n) =>
      many(n, async (i) => {
        const groupId = idOf((await json(w, w.stranger, "POST", "/groups", { name: `Deleted ${i}` })).body);
        const member = await callerOf(w.api, w.secret, "grouped");
        await json(w, w.stranger, "POST", `/groups/${groupId}/members`, { email: member.email });
        await json(w, w.stranger, "POST", `/shares/entity/page/${w.strangerPageId}/grants`, {
          groupId,
          permission: "view",
        });
        return groupId;
      }),
    request: (w, id) => send(w.stranger, "DELETE", `/groups/${id}`),
  },
  "GET /api/v1/groups/{groupId}/history": {
    input: "a group's changes",
    prepare: (w, n) =>
      many(n, async (i) => idOf((await json(w, w.stranger, "POST", "/groups", { name: `History ${i}` })).body)),
    request: (w, id) => get(w.stranger, `/groups/${id}/history?limit=100`),
  },
  "GET /api/v1/groups/{groupId}/members": {
    input: "a page of a group's members",
    prepare: (w, n) =>
      many(n, async (i) => {
        const groupId = idOf((await json(w, w.stranger, "POST", "/groups", { name: `Listed ${i}` })).body);
        const member = await callerOf(w.api, w.secret, "listed");
        await json(w, w.stranger, "POST", `/groups/${groupId}/members`, { email: member.email });
        return groupId;
      }),
    request: (w, id) => get(w.stranger, `/groups/${id}/members?limit=100`),
  },
  "POST /api/v1/groups/{groupId}/members": {
    input: "invite an address without an account to a group",
    prepare: (w, n) =>
      many(n, async (i) => idOf((await json(w, w.stranger, "POST", "/groups", { name: `Invited ${i}` })).body)),
    request: (w, id) => send(w.stranger, "POST", `/groups/${id}/members`, { email: newEmail() }),
  },
  "DELETE /api/v1/groups/{groupId}/members/{userId}": {
    input: "remove a member",
    prepare: (w, n) =>
      many(n, async (i) => {
        const groupId = idOf((await json(w, w.stranger, "POST", "/groups", { name: `Left ${i}` })).body);
        const member = await callerOf(w.api, w.secret, "leaving");
        await json(w, w.stranger, "POST", `/groups/${groupId}/members`, { email: member.email });
        return `${groupId}/members/${member.id}`;
      }),
    request: (w, path) => send(w.stranger, "DELETE", `/groups/${path}`),
  },
};
