import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { addMember, createFolder, createPage, unknownAddress } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const registered = (label: string, options: { email?: string; picture?: string } = {}): Promise<TestUser> =>
  server.registered(label, options);

describe("workspace members", () => {
  it("adding an existing account answers 200 with memberId and name, and the role applies to all the owner's pages and folders", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann", { picture: "https://img.example/ann.png" });
    const folderId = await createFolder(owner);
    const inFolder = await createPage(owner, { parentId: folderId });
    const atRoot = await createPage(owner);
    const reply = await addMember(owner, ann.email.toUpperCase(), "editor");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ok: true,
      memberId: ann.id,
      name: "ann",
      invitation: null,
      message: expect.any(String),
    });
    for (const pageId of [inFolder, atRoot]) expect((await ann.get(`/pages/${pageId}`)).body.permission).toBe("edit");
    expect((await ann.get("/folders")).body.data).toEqual([
      expect.objectContaining({ id: folderId, permission: "edit" }),
    ]);
    expect((await ann.patch(`/pages/${atRoot}`, { title: "Edited by a member" })).status).toBe(200);
  });

  it("GET /shares/workspace shows the owner's members and the caller's memberships", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann", { picture: "https://img.example/ann.png" });
    await addMember(owner, ann.email, "viewer");
    const mine = await owner.get("/shares/workspace");
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      ownerId: owner.id,
      ownerName: "owner",
      members: [
        {
          id: expect.any(String),
          workspaceOwnerId: owner.id,
          memberId: ann.id,
          memberName: "ann",
          memberEmail: ann.email,
          memberAvatarUrl: "https://img.example/ann.png",
          role: "viewer",
          createdAt: expect.any(String),
        },
      ],
      memberships: [],
      pendingInvitations: [],
    });
    const theirs = await ann.get("/shares/workspace");
    expect(theirs.body).toMatchObject({
      ownerId: ann.id,
      members: [],
      memberships: [{ ownerId: owner.id, ownerName: "owner", role: "viewer", joinedAt: expect.any(String) }],
    });
  });

  it("adding a member again changes their role; the membership keeps its id", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    await addMember(owner, ann.email, "viewer");
    const before = (await owner.get("/shares/workspace")).body.members as { id: string }[];
    expect((await addMember(owner, ann.email, "admin")).status).toBe(200);
    const after = (await owner.get("/shares/workspace")).body.members as { id: string; role: string }[];
    expect(after).toEqual([expect.objectContaining({ id: before[0]?.id, role: "admin" })]);
  });

  it("an unknown address is invited: 202 with the invitation, listed as pending", async () => {
    const owner = await registered("owner");
    const email = unknownAddress();
    const reply = await addMember(owner, email, "viewer");
    expect(reply.status).toBe(202);
    expect(reply.body.invitation).toMatchObject({
      targetType: "workspace",
      targetId: owner.id,
      email,
      permission: "viewer",
      canManage: true,
      deliveryStatus: expect.stringMatching(/^(pending|sent)$/),
    });
    expect(reply.body).toMatchObject({ ok: true, memberId: null, name: null });
    // The notifier may have delivered it meanwhile: everything but deliveryStatus is unchanged.
    expect((await owner.get("/shares/workspace")).body.pendingInvitations).toEqual([
      { ...(reply.body.invitation as Record<string, unknown>), deliveryStatus: expect.any(String) },
    ]);
  });

  it("refuses the owner's own address, an unknown role and a bad address with 400", async () => {
    const owner = await registered("owner");
    expect((await addMember(owner, owner.email, "viewer")).status).toBe(400);
    expect((await addMember(owner, unknownAddress(), "owner")).status).toBe(400);
    expect((await addMember(owner, "nobody", "viewer")).status).toBe(400);
  });

  it("removing a member takes their access away at once; removing a non-member is 404", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const pageId = await createPage(owner);
    await addMember(owner, ann.email, "admin");
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(200);
    expect((await owner.delete(`/shares/workspace/members/${ann.id}`)).status).toBe(204);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await ann.get("/pages")).body.data).toEqual([]);
    expect((await owner.get("/shares/workspace")).body.members).toEqual([]);
    expect((await owner.delete(`/shares/workspace/members/${ann.id}`)).status).toBe(404);
  });

  it("a member cannot remove members of a workspace they do not own", async () => {
    const owner = await registered("owner");
    const ann = await registered("ann");
    const bob = await registered("bob");
    await addMember(owner, ann.email, "admin");
    await addMember(owner, bob.email, "viewer");
    // The route acts on the caller's own workspace, where bob is not a member.
    expect((await ann.delete(`/shares/workspace/members/${bob.id}`)).status).toBe(404);
    expect((await owner.get("/shares/workspace")).body.members).toHaveLength(2);
  });

  it("needs pages:write to add a member", async () => {
    const owner = await registered("owner");
    const reader = await server.tokenClient(owner, ["pages:read"]);
    expect(
      (await reader.post("/shares/workspace/members", { email: unknownAddress(), role: "viewer" })).body.error?.code,
    ).toBe("insufficient_scope");
  });
});
