// One worst case per operation of the API reference: the most expensive request within the documented limits,
// against the fixture of fixture.ts. `prepare` makes what one iteration consumes (a page to delete, a token to
// revoke) before the timed part, so every timed request is the operation itself.
import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import {
  callerOf,
  costliestMarkdown,
  GROUP_FOLDERS,
  jsonHeaders,
  largestPng,
  multipart,
  PAGE_MAX_CHARS,
  type Caller,
  type Worst,
} from "./fixture.ts";

export interface WorstRequest {
  readonly method: string;
  /** From the server's root: `/api/v1/...`. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array<ArrayBuffer>;
  /** An endless answer (an event stream): read for this long, then hang up. */
  readonly readForMs?: number;
}

export interface WorstCase {
  /** What makes this input the worst within the limits. */
  readonly input: string;
  /** Makes what `iterations` requests consume; its result is handed to `request`. */
  readonly prepare?: (w: Worst, iterations: number) => Promise<string[]>;
  readonly request: (w: Worst, prepared: string, iteration: number) => Promise<WorstRequest> | WorstRequest;
  /** Fewer iterations for the operations that are minutes at their worst. */
  readonly maxIterations?: number;
  /** Statuses that are the worst case itself (a wrong password's 401), not failures. */
  readonly expected?: readonly number[];
}

const api = (path: string): string => `/api/v1${path}`;
/** Over the fixture's prose: two prefixes of its commonest words, three 8-word phrases of it, eleven of its words. */
const WORST_SEARCH =
  'th* an* "the quarterly plan covers hiring the storage migration" "and the onboarding flow each team lists goals" ' +
  '"lists goals and risks the quarterly plan covers" plan covers hiring storage migration onboarding flow each team goals risks';
const get = (caller: Caller, path: string): WorstRequest => ({
  method: "GET",
  path: api(path),
  headers: { cookie: caller.cookie },
});
const send = (caller: Caller, method: string, path: string, body?: unknown): WorstRequest => ({
  method,
  path: api(path),
  headers: body === undefined ? { cookie: caller.cookie } : jsonHeaders(caller),
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

async function json(
  w: Worst,
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ body: Record<string, unknown>; headers: Headers }> {
  const reply = await fetch(`${w.api}${path}`, {
    method,
    headers: body === undefined ? { cookie: caller.cookie } : jsonHeaders(caller),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await reply.text();
  if (reply.status >= 400) throw new Error(`${method} ${path} answered ${reply.status}: ${text.slice(0, 200)}`);
  return { body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: reply.headers };
}
const idOf = (body: Record<string, unknown>): string => {
  const nested = ["thread", "invitation", "member"]
    .map((k) => body[k])
    .find((v): v is Record<string, unknown> => typeof v === "object" && v !== null);
  const id = body.id ?? nested?.id;
  if (typeof id !== "string") throw new Error(`no id in ${JSON.stringify(body).slice(0, 200)}`);
  return id;
};
const many = async (n: number, make: (i: number) => Promise<string>): Promise<string[]> => {
  const made: string[] = [];
  for (let i = 0; i < n; i += 1) made.push(await make(i));
  return made;
};
const etagOf = async (w: Worst, pageId: string): Promise<string> =>
  (await fetch(`${w.api}/pages/${pageId}/content`, { headers: { cookie: w.owner.cookie } })).headers.get("etag") ?? "";
/** A folder holding `pages` pages, made through one import. */
async function folderWithPages(w: Worst, pages: number): Promise<string> {
  const name = `Bulk ${randomUUID().slice(0, 8)}`;
  await json(w, w.owner, "POST", "/imports/obsidian", {
    files: Array.from({ length: pages }, (_, i) => ({
      path: `${name}/Note ${i}.md`,
      content: `# Note ${i}\n\n${"Text of the note. ".repeat(50)}`,
    })),
  });
  const folders = await json(w, w.owner, "GET", `/folders?limit=100`);
  const found = (folders.body.data as Array<{ id: string; name: string }>).find((f) => f.name === name);
  if (!found) throw new Error(`folder ${name} not found after its import`);
  return found.id;
}
const newEmail = (): string => `invitee-${randomUUID().slice(0, 8)}@worst.example`;

/** A vault at the import's limits of shape: 1,000 notes of 10 KB, each with 50 wikilinks and an embed. */
const heavyVault = () =>
  Array.from({ length: 1_000 }, (_, i) => ({
    path: `Vault ${i % 20}/Note ${i}.md`,
    content: `---\ntags: [a, b]\naliases: [N${i}]\n---\n# Note ${i}\n\n${Array.from({ length: 50 }, (_, j) => `[[Note ${(i + j) % 1_000}#Heading|alias ${j}]]`).join(" ")}\n\n${"Body text. ".repeat(800)}`,
  }));

/** A folder of `pages` pages, deleted recursively: in the trash with everything it holds. */
async function trashedFolderWithPages(w: Worst, pages: number): Promise<string> {
  const folderId = await folderWithPages(w, pages);
  await json(w, w.owner, "DELETE", `/folders/${folderId}?recursive=true`);
  return folderId;
}

export const WORST_CASES: Record<string, WorstCase> = {
  "GET /healthz": { input: "no work", request: () => ({ method: "GET", path: "/healthz" }) },
  "GET /readyz": {
    input: "stores pinged, lag counted up to 1,000 events or READY_MAX_BYTES of them",
    request: () => ({ method: "GET", path: "/readyz" }),
  },
  "GET /metrics": { input: "every metric of a busy process", request: () => ({ method: "GET", path: "/metrics" }) },
  "GET /api/v1/me": { input: "a session", request: (w) => get(w.owner, "/me") },
  "POST /api/v1/tokens": {
    input: "every scope",
    request: (w) =>
      send(w.stranger, "POST", "/tokens", {
        name: `t-${randomUUID()}`,
        scopes: ["pages:read", "pages:comment", "pages:write"],
      }),
  },
  "GET /api/v1/tokens": { input: "the caller's tokens", request: (w) => get(w.owner, "/tokens") },
  "DELETE /api/v1/tokens/{tokenId}": {
    input: "revoke a token",
    prepare: (w, n) =>
      many(n, async () =>
        idOf(
          (await json(w, w.stranger, "POST", "/tokens", { name: `r-${randomUUID()}`, scopes: ["pages:read"] })).body,
        ),
      ),
    request: (w, id) => send(w.stranger, "DELETE", `/tokens/${id}`),
  },
  "GET /api/v1/apps": { input: "the caller's authorized apps", request: (w) => get(w.owner, "/apps") },
  // Authorizing an app takes a person's consent in a browser, which the bench does not drive: the revocation is
  // measured on an app that is not the caller's (the app's stream read and refused), not an app's whole revocation.
  "DELETE /api/v1/apps/{appId}": {
    input: "an app that is not the caller's",
    request: (w) => send(w.stranger, "DELETE", `/apps/app-${randomUUID()}`),
  },
  "POST /api/v1/webhooks": {
    input: "every event, a folder filter",
    request: (w) =>
      send(w.stranger, "POST", "/webhooks", {
        url: `http://127.0.0.1:9/${randomUUID()}`,
        events: ["page.created", "page.updated", "page.deleted"],
      }),
  },
  "GET /api/v1/webhooks": { input: "50 webhooks (the quota)", request: (w) => get(w.owner, "/webhooks?limit=100") },
  "GET /api/v1/webhooks/{webhookId}": { input: "a webhook", request: (w) => get(w.owner, `/webhooks/${w.webhookId}`) },
  "PATCH /api/v1/webhooks/{webhookId}": {
    input: "change events and description",
    request: (w, _p, i) => send(w.owner, "PATCH", `/webhooks/${w.webhookId}`, { description: `changed ${i}` }),
  },
  "DELETE /api/v1/webhooks/{webhookId}": {
    input: "delete a webhook",
    prepare: (w, n) =>
      many(n, async () =>
        idOf(
          (
            await json(w, w.stranger, "POST", "/webhooks", {
              url: `http://127.0.0.1:9/${randomUUID()}`,
              events: ["page.created"],
            })
          ).body,
        ),
      ),
    request: (w, id) => send(w.stranger, "DELETE", `/webhooks/${id}`),
  },
  "GET /api/v1/webhooks/{webhookId}/deliveries": {
    input: "a webhook failing every delivery",
    request: (w) => get(w.owner, `/webhooks/${w.webhookId}/deliveries?limit=100`),
  },
  "POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry": {
    input: "retry a failed delivery",
    prepare: async (w, n) => {
      const list = await json(w, w.owner, "GET", `/webhooks/${w.webhookId}/deliveries?limit=100`);
      const ids = (list.body.data as Array<{ id: string }>).map((d) => d.id);
      return Array.from({ length: n }, (_, i) => ids[i % Math.max(1, ids.length)] ?? randomUUID());
    },
    request: (w, id) => send(w.owner, "POST", `/webhooks/${w.webhookId}/deliveries/${id}/retry`),
  },
  "POST /api/v1/webhooks/{webhookId}/replay": {
    input: "the whole log after position 0, one webhook each (one replay per webhook at a time)",
    maxIterations: 3,
    prepare: async (w, n) =>
      ((await json(w, w.owner, "GET", "/webhooks?limit=100")).body.data as Array<{ id: string }>)
        .slice(0, n)
        .map((webhook) => webhook.id),
    request: (w, id) => send(w.owner, "POST", `/webhooks/${id}/replay`, { after: "0" }),
  },
  "GET /api/v1/templates": {
    input: "the largest workspace, grants received, limit 100",
    request: (w) => get(w.owner, "/templates?limit=100"),
  },
  "PUT /api/v1/pages/{pageId}/watch": {
    input: "watch the largest page",
    request: (w) => send(w.owner, "PUT", `/pages/${w.bigPageId}/watch`, {}),
  },
  "DELETE /api/v1/pages/{pageId}/watch": {
    input: "stop watching the largest page",
    request: (w) => send(w.owner, "DELETE", `/pages/${w.bigPageId}/watch`),
  },
  "GET /api/v1/pages/{pageId}/watch": {
    input: "the largest page, deepest in its folders",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/watch`),
  },
  "PUT /api/v1/folders/{folderId}/watch": {
    input: "watch the folder of the largest workspace",
    request: (w) => send(w.owner, "PUT", `/folders/${w.folderId}/watch`, {}),
  },
  "DELETE /api/v1/folders/{folderId}/watch": {
    input: "stop watching the folder",
    request: (w) => send(w.owner, "DELETE", `/folders/${w.folderId}/watch`),
  },
  "GET /api/v1/folders/{folderId}/watch": {
    input: "the folder of the largest workspace",
    request: (w) => get(w.owner, `/folders/${w.folderId}/watch`),
  },
  "GET /api/v1/me/notification-settings": {
    input: "a user's settings",
    request: (w) => get(w.owner, "/me/notification-settings"),
  },
  "PUT /api/v1/me/notification-settings": {
    input: "every setting changed",
    request: (w, _p, i) => send(w.owner, "PUT", "/me/notification-settings", { autoWatch: i % 2 === 0 }),
  },
  "GET /api/v1/users": {
    input: "a one-letter prefix over the owner's whole circle (members and grants), limit 50",
    request: (w) => get(w.owner, "/users?query=a&limit=50"),
  },
  "GET /api/v1/pages": {
    input: "the largest workspace, grants received, limit 100",
    request: (w) => get(w.owner, "/pages?limit=100"),
  },
  "POST /api/v1/pages": {
    input: `${PAGE_MAX_CHARS} characters of unclosed link brackets`,
    request: (w) =>
      send(w.owner, "POST", "/pages", {
        title: `Largest ${randomUUID()}`,
        markdown: costliestMarkdown(w.sizes.bigPageChars),
      }),
  },
  "GET /api/v1/search": {
    input:
      "the costliest query the limits allow (2 prefixes, 3 phrases of 8 words, 16 terms), every term in every page, grants received, limit 50",
    request: (w) => get(w.owner, `/search?q=${encodeURIComponent(WORST_SEARCH)}&limit=50`),
  },
  "GET /api/v1/pages/resolve": {
    input: "a title among the largest workspace",
    request: (w) => get(w.owner, `/pages/resolve?title=${encodeURIComponent(w.sampleTitle)}`),
  },
  "GET /api/v1/pages/{pageId}": {
    input: "?at= the middle of the longest history",
    request: (w) => get(w.owner, `/pages/${w.historyPageId}?at=${w.midRevision}`),
  },
  "GET /api/v1/pages/{pageId}/history": {
    input: "the longest history, limit 100",
    request: (w) => get(w.owner, `/pages/${w.historyPageId}/history?limit=100`),
  },
  "POST /api/v1/pages/{pageId}/restore": {
    input: "restore the longest history's middle",
    request: async (w) => ({
      ...send(w.owner, "POST", `/pages/${w.historyPageId}/restore`, { at: w.midRevision }),
      headers: { ...jsonHeaders(w.owner), "if-match": await etagOf(w, w.historyPageId) },
    }),
  },
  "GET /api/v1/changes": {
    input: "catch-up from position 0 over the whole log (read for 3 s)",
    maxIterations: 2,
    request: (w) => ({ ...get(w.owner, "/changes?after=0"), readForMs: 3_000 }),
  },
  "GET /api/v1/folders/{folderId}/history": {
    input: "a folder's changes",
    request: (w) => get(w.owner, `/folders/${w.folderId}/history?limit=100`),
  },
  "PATCH /api/v1/pages/{pageId}": {
    input: "rename the largest page",
    request: (w, _p, i) =>
      send(w.owner, "PATCH", `/pages/${w.bigPageId}`, { title: `Largest page ${i} ${"x".repeat(150)}` }),
  },
  "DELETE /api/v1/pages/{pageId}": {
    input: "delete a page of the largest size",
    prepare: (w, n) =>
      many(n, async (i) =>
        idOf(
          (
            await json(w, w.owner, "POST", "/pages", {
              title: `Doomed ${i}`,
              markdown: costliestMarkdown(w.sizes.bigPageChars),
            })
          ).body,
        ),
      ),
    request: (w, id) => send(w.owner, "DELETE", `/pages/${id}`),
  },
  "POST /api/v1/pages/{pageId}/images": {
    input: "a 10000×9999 RGBA PNG (the most pixels)",
    maxIterations: 3,
    request: async (w) => {
      const boundary = `worst${randomUUID().replaceAll("-", "")}`;
      return {
        method: "POST",
        path: api(`/pages/${w.bigPageId}/images`),
        headers: { cookie: w.owner.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
        body: Uint8Array.from(multipart(boundary, "largest.png", "image/png", await largestPng())),
      };
    },
  },
  "POST /api/v1/imports/obsidian": {
    input: "1,000 notes of 10 KB, 50 wikilinks each",
    maxIterations: 2,
    request: (w) => send(w.owner, "POST", "/imports/obsidian", { files: heavyVault() }),
  },
  "GET /api/v1/exports/obsidian": {
    input: "the whole largest workspace, with the largest page",
    maxIterations: 2,
    request: (w) => get(w.owner, "/exports/obsidian"),
  },
  "GET /api/v1/images/{imageId}": {
    input: "the largest image's bytes",
    request: (w) => get(w.owner, `/images/${w.imageId}`),
  },
  "GET /api/v1/pages/{pageId}/content": {
    input: "the largest page",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/content`),
  },
  "POST /api/v1/pages/{pageId}/move": {
    input: "the largest page, in and out of a folder",
    request: (w, _p, i) =>
      send(w.owner, "POST", `/pages/${w.bigPageId}/move`, { parentId: i % 2 === 0 ? null : w.folderId }),
  },
  "PUT /api/v1/pages/{pageId}/content": {
    input:
      "replace the largest page, watched by the fixture's watchers (the fan-out's cap), with another of the costliest markdown",
    request: async (w, _p, i) => ({
      method: "PUT",
      path: api(`/pages/${w.bigPageId}/content`),
      headers: { ...jsonHeaders(w.owner), "if-match": await etagOf(w, w.bigPageId) },
      body: JSON.stringify({ markdown: `${costliestMarkdown(w.sizes.bigPageChars - 10)}${i}` }),
    }),
  },
  "PATCH /api/v1/pages/{pageId}/content": {
    input: "append to the longest history's page",
    request: (w, _p, i) => send(w.owner, "PATCH", `/pages/${w.historyPageId}/content`, { append: `\nappended ${i}` }),
  },
  "POST /api/v1/pages/{pageId}/duplicate": {
    input: "the largest page with its images",
    maxIterations: 3,
    request: (w, _p, i) => send(w.owner, "POST", `/pages/${w.bigPageId}/duplicate`, { title: `Copy ${i}` }),
  },
  "GET /api/v1/pages/{pageId}/backlinks": {
    input: "a page linked from thousands of pages the caller cannot see",
    request: (w) => get(w.owner, `/pages/${w.linkedPageId}/backlinks?limit=100`),
  },
  "GET /api/v1/trash": {
    input: "the trash after the deletions above",
    request: (w) => get(w.owner, "/trash?limit=100"),
  },
  "POST /api/v1/trash/{type}/{id}/restore": {
    input: "restore a folder of 200 pages",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => trashedFolderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "POST", `/trash/folder/${id}/restore`),
  },
  "DELETE /api/v1/trash/{type}/{id}": {
    input: "purge a folder of 200 pages (each key destroyed, each page purged)",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => trashedFolderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "DELETE", `/trash/folder/${id}`),
  },
  "GET /api/v1/pages/{pageId}/comments": {
    input: "every thread of the largest page",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/comments?limit=100`),
  },
  "POST /api/v1/pages/{pageId}/comments": {
    input: "a quote anchored in the largest page, mentioning 200 people who can view it (each notified)",
    request: (w, _p, i) =>
      send(w.owner, "POST", `/pages/${w.bigPageId}/comments`, {
        // 200 mentions of 49 characters: within the 10,000 characters a comment holds.
        body: `Question ${i} ${w.mentionedIds.map((id) => `[@](mention:${id})`).join("")}`,
        anchor: { quote: "[x]".repeat(600), prefix: "[x]".repeat(160), suffix: "" },
      }),
  },
  "POST /api/v1/pages/{pageId}/comments/{threadId}/replies": {
    input: "a reply of the longest body",
    request: (w) =>
      send(w.owner, "POST", `/pages/${w.bigPageId}/comments/${w.threadId}/replies`, { body: "r".repeat(10_000) }),
  },
  "PATCH /api/v1/pages/{pageId}/comments/{threadId}/status": {
    input: "resolve and reopen",
    request: (w, _p, i) =>
      send(w.owner, "PATCH", `/pages/${w.bigPageId}/comments/${w.threadId}/status`, {
        status: i % 2 === 0 ? "resolved" : "open",
      }),
  },
  "PATCH /api/v1/pages/{pageId}/comments/{commentId}": {
    input: "edit to the longest body",
    request: (w, _p, i) =>
      send(w.owner, "PATCH", `/pages/${w.bigPageId}/comments/${w.commentId}`, { body: `${i}${"e".repeat(9_990)}` }),
  },
  "DELETE /api/v1/pages/{pageId}/comments/{commentId}": {
    input: "delete a reply",
    prepare: (w, n) =>
      many(n, async () => {
        const reply = await json(w, w.owner, "POST", `/pages/${w.bigPageId}/comments/${w.threadId}/replies`, {
          body: "to delete",
        });
        const comments = (reply.body.thread as { comments: Array<{ id: string }> }).comments;
        return comments.at(-1)?.id ?? "";
      }),
    request: (w, id) => send(w.owner, "DELETE", `/pages/${w.bigPageId}/comments/${id}`),
  },
  "GET /api/v1/folders": {
    input: "the largest workspace's folders, limit 100",
    request: (w) => get(w.owner, "/folders?limit=100"),
  },
  "GET /api/v1/folders/{folderId}": { input: "a folder", request: (w) => get(w.owner, `/folders/${w.folderId}`) },
  "PATCH /api/v1/folders/{folderId}": {
    input: "rename a folder",
    request: (w, _p, i) => send(w.owner, "PATCH", `/folders/${w.folderId}`, { name: `Worst case ${i}` }),
  },
  "POST /api/v1/folders/{folderId}/move": {
    input: "move a folder of 200 pages",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => folderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "POST", `/folders/${id}/move`, { parentId: w.folderId }),
  },
  "DELETE /api/v1/folders/{folderId}": {
    input: "delete a folder of 200 pages, recursively",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => folderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "DELETE", `/folders/${id}?recursive=true`),
  },
  "POST /api/v1/folders": {
    input: "a folder with the longest name",
    request: (w, _p, i) => send(w.owner, "POST", "/folders", { name: `${i} ${"f".repeat(190)}`, parentId: w.folderId }),
  },
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
  /** Rows of their own (not operations of the reference): the projection's fan-out into the per-user listing. */
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
  "POST /api/v1/pages/{pageId}/share-links": {
    input: "a 200-character password (scrypt)",
    request: (w) => send(w.owner, "POST", `/pages/${w.bigPageId}/share-links`, { password: "p".repeat(200) }),
  },
  "POST /api/v1/folders/{folderId}/share-links": {
    input: "a 200-character password (scrypt)",
    request: (w) => send(w.owner, "POST", `/folders/${w.folderId}/share-links`, { password: "p".repeat(200) }),
  },
  "GET /api/v1/share-links": {
    input: "the caller's links, limit 100",
    request: (w) => get(w.owner, "/share-links?limit=100"),
  },
  "GET /api/v1/share-links/{linkId}": {
    input: "a link",
    prepare: async (w, n) =>
      repeated(n, idOf((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, id) => get(w.owner, `/share-links/${id}`),
  },
  "PATCH /api/v1/share-links/{linkId}": {
    input: "a new 200-character password (scrypt)",
    prepare: async (w, n) =>
      repeated(n, idOf((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, id, i) => send(w.owner, "PATCH", `/share-links/${id}`, { password: `${"p".repeat(190)}${i}` }),
  },
  "DELETE /api/v1/share-links/{linkId}": {
    input: "revoke a link",
    prepare: (w, n) =>
      many(n, async () => idOf((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, id) => send(w.owner, "DELETE", `/share-links/${id}`),
  },
  "GET /api/v1/notifications": {
    input:
      "the owner's notifications of every grant received (capped at 500 per user), unread only, limit 100, each page's access checked",
    request: (w) => get(w.owner, "/notifications?limit=100&unread=true"),
  },
  "GET /api/v1/audit": {
    input:
      "the owner's trail of every share, token and webhook the fixture made, one actor's entries from the first instant, limit 100 (each entry's detail checked)",
    request: (w) => get(w.owner, `/audit?limit=100&actorId=${w.owner.id}&after=1970-01-01T00:00:00Z`),
  },
  "POST /api/v1/notifications/read": {
    input: "every notification marked read at once",
    request: (w) => send(w.owner, "POST", "/notifications/read", { all: true }),
  },
  "GET /api/v1/notifications/unsubscribe": {
    input: "a 1,000-character token whose signature does not match (the HMAC is checked before anything is read)",
    expected: [404],
    request: () => ({ method: "GET", path: `/api/v1/notifications/unsubscribe?token=u1.${"a".repeat(994)}.b` }),
  },
  "POST /api/v1/notifications/unsubscribe": {
    input: "the one-click form with a 1,000-character token whose signature does not match",
    expected: [404],
    request: () => ({
      method: "POST",
      path: `/api/v1/notifications/unsubscribe?token=u1.${"a".repeat(994)}.b`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    }),
  },
  "GET /api/v1/pages/{pageId}/diff": {
    input: "half the longest history: 2,000 lines, every one changed",
    request: (w) => get(w.owner, `/pages/${w.historyPageId}/diff?from=${w.midRevision}`),
  },
  "POST /api/v1/pages/{pageId}/attachments": {
    input: "50 MB (ATTACHMENT_MAX_BYTES), incompressible",
    maxIterations: 3,
    request: (w) => attachmentUpload(w, ATTACHMENT_BYTES),
  },
  "GET /api/v1/pages/{pageId}/attachments": {
    input: "the largest page's attachments, limit 100",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/attachments?limit=100`),
  },
  "GET /api/v1/attachments/{attachmentId}": {
    input: "a 50 MB attachment's bytes",
    maxIterations: 3,
    prepare: async (w, n) => repeated(n, await uploadedAttachment(w, ATTACHMENT_BYTES)),
    request: (w, id) => get(w.owner, `/attachments/${id}`),
  },
  "DELETE /api/v1/pages/{pageId}/attachments/{attachmentId}": {
    input: "remove an attachment",
    prepare: (w, n) => many(n, () => uploadedAttachment(w, 1024)),
    request: (w, id) => send(w.owner, "DELETE", `/pages/${w.bigPageId}/attachments/${id}`),
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
  "GET /s/{secret}": {
    input: `the largest page (${PAGE_MAX_CHARS} characters of unclosed link brackets) rendered to HTML`,
    maxIterations: 3,
    prepare: async (w, n) =>
      repeated(n, publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (_w, path) => ({ method: "GET", path }),
  },
  "POST /s/{secret}": {
    input: "a wrong 200-character password (scrypt)",
    expected: [401],
    prepare: (w, n) =>
      many(n, async () =>
        publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, { password: "right" })).body),
      ),
    request: (_w, path) => ({
      method: "POST",
      path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `password=${"p".repeat(200)}`,
    }),
  },
  "GET /s/{secret}/pages/{pageId}": {
    input: "the largest page through a folder link, the folder's pages listed beside it",
    prepare: async (w, n) => {
      const pageId = idOf(
        (
          await json(w, w.owner, "POST", "/pages", {
            title: "Largest shared",
            markdown: costliestMarkdown(w.sizes.bigPageChars),
            parentId: w.folderId,
          })
        ).body,
      );
      return repeated(
        n,
        `${publicPath((await json(w, w.owner, "POST", `/folders/${w.folderId}/share-links`, {})).body)}/pages/${pageId}`,
      );
    },
    request: (_w, path) => ({ method: "GET", path }),
  },
  "GET /s/{secret}/images/{imageId}": {
    input: "the largest image through a page link",
    prepare: async (w, n) =>
      repeated(n, publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, path) => ({ method: "GET", path: `${path}/images/${w.imageId}` }),
  },
  "GET /s/{secret}/attachments/{attachmentId}": {
    input: "a 50 MB attachment's bytes through a page link",
    maxIterations: 3,
    prepare: async (w, n) => {
      const attachmentId = await uploadedAttachment(w, ATTACHMENT_BYTES);
      return repeated(
        n,
        `${publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)}/attachments/${attachmentId}`,
      );
    },
    request: (_w, path) => ({ method: "GET", path }),
  },
};

const repeated = (n: number, value: string): string[] => Array.from({ length: n }, () => value);

/** The largest attachment an upload takes by default (ATTACHMENT_MAX_BYTES): 50 MB of bytes that do not compress. */
const ATTACHMENT_BYTES = 50 * 1024 * 1024;
const attachmentBody = (boundary: string, bytes: number): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      randomBytes(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  );
function attachmentUpload(w: Worst, bytes: number): WorstRequest {
  const boundary = `worst${randomUUID().replaceAll("-", "")}`;
  return {
    method: "POST",
    path: api(`/pages/${w.bigPageId}/attachments`),
    headers: { cookie: w.owner.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: attachmentBody(boundary, bytes),
  };
}
async function uploadedAttachment(w: Worst, bytes: number): Promise<string> {
  const request = attachmentUpload(w, bytes);
  const reply = await fetch(`${w.server.url}${request.path}`, {
    method: "POST",
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = (await reply.json()) as Record<string, unknown>;
  if (reply.status >= 400)
    throw new Error(`attachment upload answered ${reply.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return idOf(body);
}
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

/** A created share link's public path, from the url in its creation answer. */
function publicPath(body: Record<string, unknown>): string {
  return new URL(String(body.url), "http://bench.invalid").pathname;
}
