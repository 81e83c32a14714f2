// GET /audit from the outside: a workspace's owner and admins read who changed its tokens, members, groups, grants,
// share links and webhooks, and what was written through an API token (named by its id); filters and cursors
// page through it; anyone else is told it does not exist; an erased account leaves none of its words there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer } from "../../support/server.ts";
import { authorizedApp } from "../../support/oauth-flow.ts";
import { receiversForFile } from "../../support/webhook-receiver.ts";
import { addMember, createPage, share } from "../../support/workspace-builders.ts";

const receiver = receiversForFile();
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({ settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
});
afterAll(async () => {
  await server.stop();
});

interface Entry {
  id: string;
  kind: string;
  actorId: string;
  tokenId?: string;
  appId?: string;
  at: string;
  target: { type: string; id: string };
  detail: Record<string, unknown>;
}

async function trail(client: Client, query = ""): Promise<{ data: Entry[]; nextCursor: string | null }> {
  const reply = await client.get(`/audit${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as unknown as { data: Entry[]; nextCursor: string | null };
}

async function everything(client: Client, query: string): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: Entry[]; nextCursor: string | null } = await trail(
      client,
      `${query}${cursor === null ? "" : `&cursor=${cursor}`}`,
    );
    all.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

/** An owner who did one of each thing the trail records, with an admin, a member and an outsider. */
async function busyWorkspace() {
  const owner = await server.registered("owner", { name: "Orla Auditwise" });
  const admin = await server.registered("admin");
  const member = await server.registered("member");
  const outsider = await server.registered("outsider");
  expect((await addMember(owner, admin.email, "admin")).status).toBe(200);
  expect((await addMember(owner, member.email, "viewer")).status).toBe(200);
  expect((await addMember(owner, member.email, "editor")).status).toBe(200);

  const created = await owner.post("/tokens", { name: "Deploy bot", scopes: ["pages:write"] });
  expect(created.status).toBe(201);
  const tokenId = String(created.body.id);
  const secret = String(created.body.token);
  const bot = new Client(server.url, { bearer: secret });
  const pageId = await createPage(bot, { title: "Written by the bot" });
  const revoked = await owner.post("/tokens", { name: "Old key", scopes: ["pages:read"] });
  expect((await owner.delete(`/tokens/${String(revoked.body.id)}`)).status).toBe(204);

  const group = await owner.post("/groups", { name: "Reviewers" });
  expect(group.status).toBe(201);
  const groupId = String(group.body.id);
  expect((await owner.patch(`/groups/${groupId}`, { name: "Editors" })).status).toBe(200);
  expect((await owner.post(`/groups/${groupId}/members`, { email: member.email })).status).toBe(200);

  expect((await share(owner, "page", pageId, outsider.email, "view")).status).toBe(200);
  expect((await owner.delete(`/shares/entity/page/${pageId}/grants/${outsider.id}`)).status).toBe(204);

  const link = await owner.post(`/pages/${pageId}/share-links`, { expiresAt: null, password: null });
  expect(link.status, link.text).toBe(201);
  const linkId = String(link.body.id);
  expect((await owner.delete(`/share-links/${linkId}`)).status).toBe(204);

  const endpoint = await receiver();
  const hook = await owner.post("/webhooks", { url: endpoint.url, events: ["page.created"] });
  expect(hook.status, hook.text).toBe(201);
  const webhookId = String(hook.body.id);
  expect((await owner.delete(`/webhooks/${webhookId}`)).status).toBe(204);
  expect((await owner.delete(`/groups/${groupId}`)).status).toBe(204);
  expect((await owner.delete(`/shares/workspace/members/${member.id}`)).status).toBe(204);
  return {
    owner,
    admin,
    member,
    outsider,
    tokenId,
    secret,
    pageId,
    groupId,
    linkId,
    webhookId,
    revokedId: String(revoked.body.id),
  };
}

let workspace: Awaited<ReturnType<typeof busyWorkspace>>;
beforeAll(async () => {
  workspace = await busyWorkspace();
}, 60_000);

const find = (entries: Entry[], kind: string, targetId?: string) =>
  entries.find((entry) => entry.kind === kind && (targetId === undefined || entry.target.id === targetId));

describe("GET /audit", () => {
  it("shows the owner an entry for each kind of change, newest first, naming ids and never secrets", async () => {
    const { owner, member, outsider, tokenId, pageId, groupId, linkId, webhookId, revokedId, secret } = workspace;
    const entries = await everything(owner, "?limit=100");
    expect(find(entries, "token.created", tokenId)).toMatchObject({
      actorId: owner.id,
      target: { type: "token", id: tokenId },
      detail: { scopes: ["pages:write"], expiresAt: null },
    });
    expect(find(entries, "token.revoked", revokedId)).toBeDefined();
    expect(find(entries, "member.added", member.id)).toMatchObject({ detail: { role: "viewer" } });
    expect(find(entries, "member.role_changed", member.id)).toMatchObject({ detail: { role: "editor" } });
    expect(find(entries, "member.removed", member.id)).toBeDefined();
    expect(find(entries, "group.created", groupId)).toBeDefined();
    expect(find(entries, "group.renamed", groupId)).toMatchObject({ detail: {} });
    expect(find(entries, "group.member_added", groupId)).toMatchObject({ detail: { memberId: member.id } });
    expect(find(entries, "group.deleted", groupId)).toBeDefined();
    expect(find(entries, "grant.given", pageId)).toMatchObject({
      detail: { grantee: { type: "user", id: outsider.id }, permission: "view" },
    });
    expect(find(entries, "grant.taken", pageId)).toMatchObject({
      detail: { grantee: { type: "user", id: outsider.id } },
    });
    expect(find(entries, "share_link.created", linkId)).toMatchObject({
      detail: { entity: { type: "page", id: pageId }, passwordProtected: false },
    });
    expect(find(entries, "share_link.revoked", linkId)).toBeDefined();
    expect(find(entries, "webhook.created", webhookId)).toMatchObject({ detail: { events: ["page.created"] } });
    expect(find(entries, "webhook.deleted", webhookId)).toBeDefined();
    const times = entries.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());
    const text = JSON.stringify(entries);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("Deploy bot");
    expect(text).not.toContain("Reviewers");
    expect(text).not.toContain(owner.email);
  });

  it("names the API token a write was made through", async () => {
    const { owner, tokenId, pageId } = workspace;
    const written = (await everything(owner, "?kind=write&limit=100")).filter((entry) => entry.target.id === pageId);
    expect(written).toMatchObject([
      {
        kind: "write",
        actorId: owner.id,
        tokenId,
        target: { type: "page", id: pageId },
        detail: { change: "PageCreated" },
      },
    ]);
    expect(written[0]?.appId).toBeUndefined();
    const byBrowser = (await everything(owner, "?kind=grant.given&limit=100"))[0];
    expect(byBrowser?.tokenId).toBeUndefined();
  });

  it("records an export of a folder and of the whole workspace, naming the token one was made through", async () => {
    const exporter = await server.registered("exporter");
    const folder = await exporter.post("/folders", { name: "Exported", parentId: null });
    expect(folder.status).toBe(201);
    const folderId = String(folder.body.id);
    expect((await exporter.get(`/exports/obsidian?folderId=${folderId}`)).status).toBe(200);
    const token = await server.tokenClient(exporter, ["pages:read"]);
    expect((await token.get("/exports/obsidian")).status).toBe(200);
    const exports = await everything(exporter, "?kind=export&limit=100");
    expect(exports).toMatchObject([
      {
        kind: "export",
        actorId: exporter.id,
        target: { type: "workspace", id: exporter.id },
        tokenId: expect.any(String),
      },
      { kind: "export", actorId: exporter.id, target: { type: "folder", id: folderId }, detail: {} },
    ]);
    expect(exports[1]?.tokenId).toBeUndefined();
  });

  it("names the app a write was made through, and records the app's authorization and revocation", async () => {
    const ann = await server.registered("ann");
    const { tokens } = await authorizedApp(server.url, ann, ["pages:read", "pages:write"]);
    const pageId = await createPage(new Client(server.url, { bearer: tokens.access_token }), { title: "By an agent" });
    const appId = ((await ann.get("/apps")).body.data as Array<{ id: string }>)[0]?.id ?? "";
    expect((await ann.delete(`/apps/${appId}`)).status).toBe(204);
    const entries = await everything(ann, "?limit=100");
    expect(find(entries, "write", pageId)).toMatchObject({ actorId: ann.id, appId, detail: { change: "PageCreated" } });
    expect(find(entries, "write", pageId)?.tokenId).toBeUndefined();
    expect(find(entries, "app.authorized", appId)).toMatchObject({ detail: { scopes: ["pages:read", "pages:write"] } });
    expect(find(entries, "app.revoked", appId)).toMatchObject({ detail: { by: "user" } });
    expect(JSON.stringify(entries)).not.toContain("Test Agent");
  });

  it("filters by kind, actor and instants, and pages with a cursor without repeating or skipping", async () => {
    const { owner, admin } = workspace;
    const all = await everything(owner, "?limit=100");
    const paged = await everything(owner, "?limit=3");
    expect(paged.map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
    expect(new Set(paged.map((entry) => entry.id)).size).toBe(paged.length);

    const kinds = await trail(owner, "?kind=group.created");
    expect(kinds.data.map((entry) => entry.kind)).toEqual(["group.created"]);
    expect((await trail(owner, `?actorId=${admin.id}`)).data).toEqual([]);
    expect((await everything(owner, `?actorId=${owner.id}&limit=100`)).length).toBe(all.length);

    const oldest = all.at(-1);
    const newest = all[0];
    if (!oldest || !newest) throw new Error("the trail is empty");
    const after = await everything(owner, `?after=${encodeURIComponent(oldest.at)}&limit=100`);
    expect(after.every((entry) => entry.at > oldest.at)).toBe(true);
    expect(after.map((entry) => entry.id)).not.toContain(oldest.id);
    const before = await everything(owner, `?before=${encodeURIComponent(newest.at)}&limit=100`);
    expect(before.every((entry) => entry.at < newest.at)).toBe(true);
    expect((await trail(owner, "?after=2999-01-01T00:00:00Z")).data).toEqual([]);
  });

  it("holds the same entries once the read models are rebuilt from the log", async () => {
    const { owner } = workspace;
    const before = await everything(owner, "?limit=100");
    await server.rebuildReadModels();
    expect(await everything(owner, "?limit=100")).toEqual(before);
  });

  it("rejects a bad filter, limit or cursor with 400", async () => {
    const { owner } = workspace;
    for (const query of [
      "?kind=page.created",
      "?after=yesterday",
      "?limit=101",
      "?limit=0",
      "?cursor=nope",
      "?actorId=x",
    ]) {
      const reply = await owner.get(`/audit${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
  });

  it("shows an admin the workspace's trail", async () => {
    const { owner, admin } = workspace;
    const seen = await everything(admin, `?workspaceId=${owner.id}&limit=100`);
    const own = await everything(owner, "?limit=100");
    expect(seen.map((entry) => entry.id)).toEqual(own.map((entry) => entry.id));
  });

  it("answers a member, another workspace's owner and a stranger's token 404, as a workspace that does not exist", async () => {
    const { owner, outsider } = workspace;
    const viewer = await server.registered("viewer");
    expect((await addMember(owner, viewer.email, "editor")).status).toBe(200);
    const missing = "00000000-0000-4000-8000-000000000000";
    const absent = await outsider.get(`/audit?workspaceId=${missing}`);
    expect(absent.status).toBe(404);
    for (const caller of [viewer, outsider, await server.tokenClient(outsider, ["pages:read"])]) {
      const hidden = await caller.get(`/audit?workspaceId=${owner.id}`);
      expect(hidden.status).toBe(404);
      expect(hidden.text.replaceAll(owner.id, missing)).toBe(absent.text);
    }
    // The outsider's own trail holds nothing of the owner's workspace.
    const theirs = await trail(outsider, "?limit=100");
    expect(JSON.stringify(theirs)).not.toContain(owner.id);
  });

  it("keeps none of an erased account's words: entries name it by id only", async () => {
    const { owner } = workspace;
    const name = "Quillan Erasewright";
    const email = "quillan.erasewright-5c1d@example.com";
    const leaver = await server.registered("leaver", { name, email });
    expect((await addMember(owner, email, "editor")).status).toBe(200);
    const token = await server.tokenClient(leaver, ["pages:write"]);
    await createPage(token, { title: "Quillan's page" });
    const erased = await leaver.call("DELETE", "/me", { json: { confirm: email } });
    expect(erased.status, erased.text).toBe(204);
    const entries = await everything(owner, "?limit=100");
    expect(find(entries, "account.erased", leaver.id)).toMatchObject({ target: { type: "user", id: leaver.id } });
    const text = JSON.stringify(entries);
    for (const word of ["Quillan", "Erasewright", email, "quillan"]) expect(text).not.toContain(word);
  });
});
