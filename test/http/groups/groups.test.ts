// Groups from the outside: who sees a group, what a grant to a group gives its members, and that removing a
// member, a grant or the group takes the access away in the very next request.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client } from "../../support/server.ts";
import {
  addMember,
  addToGroup,
  createFolder,
  createGroup,
  createPage,
  unknownAddress,
} from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const grantGroup = (
  client: Client,
  entityType: "page" | "folder",
  entityId: string,
  groupId: string,
  permission = "view",
) => client.post(`/shares/entity/${entityType}/${entityId}/grants`, { groupId, permission });

/** An owner with a group holding one member, and an outsider. */
async function team() {
  const owner = await server.registered("owner");
  const member = await server.registered("member");
  const outsider = await server.registered("outsider");
  const groupId = await createGroup(owner);
  await addToGroup(owner, groupId, member);
  return { owner, member, outsider, groupId };
}

describe("groups", () => {
  it("the owner creates a group and adds a member; both see it, with its member count", async () => {
    const { owner, member, groupId } = await team();
    const own = await owner.get(`/groups/${groupId}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: groupId, name: "Editors", ownerId: owner.id, memberCount: 1 });
    const listed = await member.get("/groups");
    expect(listed.status).toBe(200);
    expect((listed.body.data as Array<{ id: string }>).map((group) => group.id)).toEqual([groupId]);
    const members = await member.get(`/groups/${groupId}/members`);
    expect(members.status).toBe(200);
    expect(members.body.data).toMatchObject([{ userId: member.id, email: null }]);
    expect((await owner.get(`/groups/${groupId}/members`)).body.data).toMatchObject([
      { userId: member.id, email: member.email },
    ]);
  });

  it("a group's name and members are 404 to a non-member, exactly as a group that does not exist", async () => {
    const { outsider, groupId } = await team();
    const missing = randomUUID();
    for (const path of ["", "/members"]) {
      const hidden = await outsider.get(`/groups/${groupId}${path}`);
      const absent = await outsider.get(`/groups/${missing}${path}`);
      expect(hidden.status).toBe(404);
      expect(hidden.text.replaceAll(groupId, missing)).toBe(absent.text);
    }
    expect((await outsider.patch(`/groups/${groupId}`, { name: "Mine" })).status).toBe(404);
    expect((await outsider.delete(`/groups/${groupId}`)).status).toBe(404);
    expect((await outsider.post(`/groups/${groupId}/members`, { email: outsider.email })).status).toBe(404);
    expect((await outsider.get("/groups")).body.data).toEqual([]);
  });

  it("a member who does not manage the workspace may not rename the group or add to it, but may leave it", async () => {
    const { member, outsider, groupId } = await team();
    expect((await member.patch(`/groups/${groupId}`, { name: "Ours" })).status).toBe(403);
    expect((await member.post(`/groups/${groupId}/members`, { email: outsider.email })).status).toBe(403);
    expect((await member.delete(`/groups/${groupId}/members/${member.id}`)).status).toBe(204);
    expect((await member.get(`/groups/${groupId}`)).status).toBe(404);
  });

  it("a workspace admin manages the owner's groups", async () => {
    const { owner, outsider, groupId } = await team();
    const admin = await server.registered("admin");
    expect((await addMember(owner, admin.email, "admin")).status).toBe(200);
    expect((await admin.patch(`/groups/${groupId}`, { name: "Writers" })).status).toBe(200);
    expect((await admin.post(`/groups/${groupId}/members`, { email: outsider.email })).status).toBe(200);
    expect((await owner.get(`/groups/${groupId}`)).body).toMatchObject({ name: "Writers", memberCount: 2 });
  });

  it("a grant to a group lets its members in, and no one else", async () => {
    const { owner, member, outsider, groupId } = await team();
    const pageId = await createPage(owner, { title: "Plan" });
    expect((await member.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await grantGroup(owner, "page", pageId, groupId, "edit")).status).toBe(200);
    const read = await member.get(`/pages/${pageId}`);
    expect(read.status).toBe(200);
    expect(read.body.permission).toBe("edit");
    expect((await outsider.get(`/pages/${pageId}`)).status).toBe(404);
  });

  it("a member of a group with a folder grant reads a page in a subfolder, and finds it in lists and search", async () => {
    const { owner, member, groupId } = await team();
    const top = await createFolder(owner, { name: "Top" });
    const sub = await createFolder(owner, { name: "Sub", parentId: top });
    const pageId = await createPage(owner, { title: "Deep groupword", parentId: sub, markdown: "groupword" });
    expect((await grantGroup(owner, "folder", top, groupId)).status).toBe(200);
    expect((await member.get(`/pages/${pageId}`)).status).toBe(200);
    const listed = await member.get("/pages");
    expect((listed.body.data as Array<{ id: string }>).map((page) => page.id)).toContain(pageId);
    const found = await member.get("/search?q=groupword");
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain(pageId);
  });

  it("a removed member loses access at once", async () => {
    const { owner, member, groupId } = await team();
    const pageId = await createPage(owner);
    expect((await grantGroup(owner, "page", pageId, groupId)).status).toBe(200);
    expect((await member.get(`/pages/${pageId}`)).status).toBe(200);
    expect((await owner.delete(`/groups/${groupId}/members/${member.id}`)).status).toBe(204);
    expect((await member.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await member.get(`/groups/${groupId}`)).status).toBe(404);
  });

  it("revoking the group's grant removes access at once", async () => {
    const { owner, member, groupId } = await team();
    const folderId = await createFolder(owner);
    expect((await grantGroup(owner, "folder", folderId, groupId)).status).toBe(200);
    expect((await member.get(`/folders/${folderId}`)).status).toBe(200);
    expect((await owner.delete(`/shares/entity/folder/${folderId}/groups/${groupId}`)).status).toBe(204);
    expect((await member.get(`/folders/${folderId}`)).status).toBe(404);
  });

  it("deleting the group removes access at once", async () => {
    const { owner, member, groupId } = await team();
    const pageId = await createPage(owner);
    expect((await grantGroup(owner, "page", pageId, groupId)).status).toBe(200);
    expect((await owner.delete(`/groups/${groupId}`)).status).toBe(204);
    expect((await member.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await owner.get(`/groups/${groupId}`)).status).toBe(404);
  });

  it("the highest of a person's own grant and their group's wins", async () => {
    const { owner, member, groupId } = await team();
    const pageId = await createPage(owner);
    expect(
      (await owner.post(`/shares/entity/page/${pageId}/grants`, { email: member.email, permission: "comment" })).status,
    ).toBe(200);
    expect((await grantGroup(owner, "page", pageId, groupId, "edit")).status).toBe(200);
    expect((await member.get(`/pages/${pageId}`)).body.permission).toBe("edit");
    expect((await owner.delete(`/shares/entity/page/${pageId}/groups/${groupId}`)).status).toBe(204);
    expect((await member.get(`/pages/${pageId}`)).body.permission).toBe("comment");
  });

  it("the share listing shows a group as a group, named only to who may see it, and never its members", async () => {
    const { owner, member, groupId } = await team();
    const pageId = await createPage(owner);
    const sharer = await server.registered("sharer");
    expect(
      (await owner.post(`/shares/entity/page/${pageId}/grants`, { email: sharer.email, permission: "admin" })).status,
    ).toBe(200);
    expect((await grantGroup(owner, "page", pageId, groupId)).status).toBe(200);
    const ownersView = await owner.get(`/shares/entity/page/${pageId}`);
    expect(ownersView.body.groupGrants).toMatchObject([{ groupId, name: "Editors", permission: "view" }]);
    const sharersView = await sharer.get(`/shares/entity/page/${pageId}`);
    expect(sharersView.status).toBe(200);
    expect(sharersView.body.groupGrants).toMatchObject([{ groupId, name: null, permission: "view" }]);
    expect(sharersView.text).not.toContain(member.id);
    expect(sharersView.text).not.toContain(member.email);
    expect(sharersView.text).not.toContain("Editors");
  });

  it("sharing with a group the sharer cannot see answers as for a group that does not exist", async () => {
    const { groupId } = await team();
    const stranger = await server.registered("stranger");
    const pageId = await createPage(stranger);
    const hidden = await grantGroup(stranger, "page", pageId, groupId);
    const absent = await grantGroup(stranger, "page", pageId, randomUUID());
    expect(hidden.status).toBe(404);
    expect(absent.status).toBe(404);
    expect(hidden.body).toEqual(absent.body);
  });

  it("an address without an account is invited (202) and joins the group on registering", async () => {
    const { owner, groupId } = await team();
    const pageId = await createPage(owner);
    expect((await grantGroup(owner, "page", pageId, groupId)).status).toBe(200);
    const email = unknownAddress("grouped");
    const invited = await owner.post(`/groups/${groupId}/members`, { email });
    expect(invited.status).toBe(202);
    expect(invited.body.invitation).toMatchObject({
      targetType: "group",
      targetId: groupId,
      permission: "member",
      email,
    });
    const newcomer = await server.signIn("newcomer", { email });
    expect((await newcomer.get(`/pages/${pageId}`)).status).toBe(200);
    expect((await newcomer.get(`/groups/${groupId}`)).body).toMatchObject({ memberCount: 2 });
  });
});

describe("a workspace role for a group", () => {
  it("gives every member the role on the whole workspace, until the owner takes it away", async () => {
    const { owner, member, groupId } = await team();
    const folderId = await createFolder(owner);
    const pageId = await createPage(owner, { parentId: folderId });
    expect((await member.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await owner.post("/shares/workspace/members", { groupId, role: "editor" })).status).toBe(200);
    expect((await member.get(`/pages/${pageId}`)).body.permission).toBe("edit");
    expect((await owner.delete(`/shares/workspace/groups/${groupId}`)).status).toBe(204);
    expect((await member.get(`/pages/${pageId}`)).status).toBe(404);
  });

  it("is given by the workspace owner only, and a group the caller cannot see is not found", async () => {
    const { owner, outsider, groupId } = await team();
    const admin = await server.registered("admin");
    expect((await addMember(owner, admin.email, "admin")).status).toBe(200);
    expect((await admin.post("/shares/workspace/members", { groupId, role: "editor" })).status).toBe(403);
    expect((await outsider.post("/shares/workspace/members", { groupId, role: "editor" })).status).toBe(404);
  });
});

describe("erasure and groups", () => {
  it("an erased owner's groups go with the workspace, and their members lose what they gave", async () => {
    const owner = await server.registered("leaving-owner");
    const member = await server.registered("staying-member");
    const groupId = await createGroup(owner);
    await addToGroup(owner, groupId, member);
    expect((await owner.call("DELETE", "/me", { json: { confirm: owner.email } })).status).toBeLessThan(300);
    expect((await member.get(`/groups/${groupId}`)).status).toBe(404);
    expect((await member.get("/groups")).body.data).toEqual([]);
  });
});

describe("history of grants to groups", () => {
  it("names a group's grant and its revocation, by the group's id only, to those who may share the page", async () => {
    const { owner, member, groupId } = await team();
    const pageId = await createPage(owner);
    expect((await grantGroup(owner, "page", pageId, groupId, "edit")).status).toBe(200);
    expect((await owner.delete(`/shares/entity/page/${pageId}/groups/${groupId}`)).status).toBe(204);
    const history = await owner.get(`/pages/${pageId}/history`);
    expect(history.status).toBe(200);
    const changes = (history.body.data as Array<{ changes: { kind: string } }>).map((entry) => entry.changes);
    expect(changes).toEqual(
      expect.arrayContaining([
        { kind: "group_grant", groupId, permission: "edit", previousPermission: null },
        { kind: "group_revoke", groupId, previousPermission: "edit" },
      ]),
    );
    expect(history.text).not.toContain(member.id);
    expect(history.text).not.toContain("Editors");
  });
});
