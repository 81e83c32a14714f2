import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const registered = (label: string, email?: string): Promise<TestUser> =>
  server.registered(label, email ? { email } : {});

describe("sharing a page or folder with an existing account", () => {
  it("grants access at once: 200 {ok, message}, and the page shows the grantee's permission", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const pageId = await createPage(owner);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
    const reply = await share(owner, "page", pageId, ann.email, "comment");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, message: expect.any(String), invitation: null });
    const page = await ann.get(`/pages/${pageId}`);
    expect(page.status).toBe(200);
    expect(page.body.permission).toBe("comment");
  });

  it("re-sharing changes the permission without a duplicate grant", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, ann.email, "view");
    expect((await share(owner, "page", pageId, ann.email, "edit")).status).toBe(200);
    expect((await ann.get(`/pages/${pageId}`)).body.permission).toBe("edit");
    const shares = await owner.get(`/shares/entity/page/${pageId}`);
    expect(shares.body.grants).toEqual([
      expect.objectContaining({ userId: ann.id, permission: "edit", email: ann.email }),
    ]);
    const listed = (await ann.get("/pages")).body.data as { id: string }[];
    expect(listed.filter((page) => page.id === pageId)).toHaveLength(1);
  });

  it("compares emails case-insensitively and ignores surrounding spaces", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann", `Ann-${crypto.randomUUID().slice(0, 8)}@Example.com`);
    const pageId = await createPage(owner);
    const reply = await share(owner, "page", pageId, `  ${ann.email.toUpperCase()}  `, "view");
    expect(reply.status).toBe(200);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(200);
  });

  it("a folder grant covers the pages and folders below it", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const top = await createFolder(owner);
    const inner = await createFolder(owner, { parentId: top });
    const pageId = await createPage(owner, { parentId: inner });
    await share(owner, "folder", top, ann.email, "edit");
    expect((await ann.get(`/pages/${pageId}`)).body.permission).toBe("edit");
    const folders = (await ann.get("/folders")).body.data as { id: string; permission: string }[];
    expect(folders.filter((folder) => [top, inner].includes(folder.id)).map((folder) => folder.permission)).toEqual([
      "edit",
      "edit",
    ]);
  });

  it("the effective permission is the highest of direct and inherited grants", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const folderId = await createFolder(owner);
    const pageId = await createPage(owner, { parentId: folderId });
    await share(owner, "page", pageId, ann.email, "view");
    await share(owner, "folder", folderId, ann.email, "edit");
    expect((await ann.get(`/pages/${pageId}`)).body.permission).toBe("edit");
    await share(owner, "page", pageId, ann.email, "admin");
    expect((await ann.get(`/pages/${pageId}`)).body.permission).toBe("admin");
  });

  it("refuses an unknown entity type, a bad email or permission with 400", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    for (const [path, body] of [
      [`/shares/entity/comment/${pageId}/grants`, { email: "a@example.com", permission: "view" }],
      [`/shares/entity/page/not-a-uuid/grants`, { email: "a@example.com", permission: "view" }],
      [`/shares/entity/page/${pageId}/grants`, { email: "not an email", permission: "view" }],
      [`/shares/entity/page/${pageId}/grants`, { email: "a@example.com", permission: "owner" }],
      [`/shares/entity/page/${pageId}/grants`, { permission: "view" }],
    ] as const) {
      const reply = await owner.post(path, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
  });

  it("refuses sharing with the owner or with oneself", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    expect((await share(owner, "page", pageId, owner.email, "view")).status).toBe(400);
  });

  it("a page the caller cannot see is 404 for sharing; one they only view is 403", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const pageId = await createPage(owner);
    expect((await share(ann, "page", pageId, unknownAddress(), "view")).status).toBe(404);
    await share(owner, "page", pageId, ann.email, "view");
    const refused = await share(ann, "page", pageId, unknownAddress(), "view");
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe("forbidden");
  });
});

describe("revoking access", () => {
  it("takes effect at once, for direct and folder grants", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const folderId = await createFolder(owner);
    const pageId = await createPage(owner, { parentId: folderId });
    await share(owner, "folder", folderId, ann.email, "edit");
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(200);
    expect((await owner.delete(`/shares/entity/folder/${folderId}/grants/${ann.id}`)).status).toBe(204);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await ann.get(`/folders`)).body.data).toEqual([]);
    expect((await owner.get(`/shares/entity/folder/${folderId}`)).body.grants).toEqual([]);
  });

  it("revoking a grant that does not exist is 404; an admin cannot revoke another admin", async () => {
    const owner = await registered("owner");
    const admin = await registered("admin");
    const other = await registered("other");
    const pageId = await createPage(owner);
    expect((await owner.delete(`/shares/entity/page/${pageId}/grants/${admin.id}`)).status).toBe(404);
    await share(owner, "page", pageId, admin.email, "admin");
    await share(owner, "page", pageId, other.email, "admin");
    expect((await admin.delete(`/shares/entity/page/${pageId}/grants/${other.id}`)).status).toBe(403);
    expect((await owner.delete(`/shares/entity/page/${pageId}/grants/${other.id}`)).status).toBe(204);
  });

  it("a grantee may give up their own access", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, ann.email, "view");
    expect((await ann.delete(`/shares/entity/page/${pageId}/grants/${ann.id}`)).status).toBe(204);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
  });
});

describe("GET /shares/entity/{entityType}/{entityId}", () => {
  it("lists grants and pending invitations for those who may share; 403 for others, 404 for strangers", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const stranger = await registered("stranger");
    const pageId = await createPage(owner);
    await share(owner, "page", pageId, ann.email, "view");
    const invitee = unknownAddress();
    await share(owner, "page", pageId, invitee, "comment");
    const shares = await owner.get(`/shares/entity/page/${pageId}`);
    expect(shares.status).toBe(200);
    expect(shares.body).toMatchObject({ entityType: "page", entityId: pageId, ownerId: owner.id });
    expect(shares.body.grants).toEqual([
      expect.objectContaining({ userId: ann.id, name: "ann", permission: "view", grantedBy: owner.id }),
    ]);
    expect(shares.body.pendingInvitations).toEqual([
      expect.objectContaining({
        targetType: "page",
        targetId: pageId,
        email: invitee,
        permission: "comment",
        canManage: true,
        deliveryStatus: expect.stringMatching(/^(pending|sent)$/),
      }),
    ]);
    expect((await ann.get(`/shares/entity/page/${pageId}`)).status).toBe(403);
    expect((await stranger.get(`/shares/entity/page/${pageId}`)).status).toBe(404);
  });

  it("needs pages:read for reading and pages:write for sharing", async () => {
    const owner = await registered("owner");
    const pageId = await createPage(owner);
    const reader = await server.tokenClient(owner, ["pages:read"]);
    const writer = await server.tokenClient(owner, ["pages:write"]);
    expect((await reader.get(`/shares/entity/page/${pageId}`)).status).toBe(200);
    expect((await reader.get("/shares/workspace")).status).toBe(200);
    expect((await writer.get(`/shares/entity/page/${pageId}`)).body.error?.code).toBe("insufficient_scope");
    expect((await share(reader, "page", pageId, unknownAddress(), "view")).body.error?.code).toBe("insufficient_scope");
    expect((await share(writer, "page", pageId, unknownAddress(), "view")).status).toBe(202);
  });
});

describe("rebuilding the read models", () => {
  it("restores grants, members and invitations from the history", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const bob = await registered("bob");
    const folderId = await createFolder(owner);
    const pageId = await createPage(owner, { parentId: folderId });
    await share(owner, "folder", folderId, ann.email, "edit");
    await owner.post("/shares/workspace/members", { email: bob.email, role: "commenter" });
    await owner.post("/shares/workspace/members", { email: unknownAddress(), role: "viewer" });
    const invitation = (await share(owner, "page", pageId, unknownAddress(), "view")).body.invitation as { id: string };
    expect((await owner.post(`/shares/invitations/${invitation.id}/resend`)).status).toBe(200);
    const snapshot = async () =>
      Promise.all([
        owner.get(`/shares/entity/folder/${folderId}`),
        owner.get(`/shares/entity/page/${pageId}`),
        owner.get("/shares/workspace"),
        bob.get("/shares/workspace"),
        ann.get(`/pages/${pageId}`),
        bob.get(`/pages/${pageId}`),
      ]).then((replies) => replies.map((reply) => reply.body));
    // The notifier delivers the invitations in the background: compare once it has caught up.
    const deadline = Date.now() + 5_000;
    let before = await snapshot();
    while (JSON.stringify(before).includes('"deliveryStatus":"pending"') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      before = await snapshot();
    }
    expect(JSON.stringify(before)).not.toContain('"deliveryStatus":"pending"');
    await server.rebuildReadModels();
    expect(await snapshot()).toEqual(before);
    expect((await owner.post(`/shares/invitations/${invitation.id}/resend`)).status).toBe(429);
  });
});
