// Lists from the outside, read from each caller's listing: what a grant, a group, a move or the trash changes is in
// the very next GET /pages, GET /pages?parentId= and GET /folders of everyone it concerns, and of no one else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client } from "../../support/server.ts";
import { createFolder, createPage } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const listed = async (client: Client, query = ""): Promise<string[]> => {
  const reply = await client.get(`/pages?limit=50${query}`);
  expect(reply.status).toBe(200);
  return (reply.body.data as Array<{ id: string }>).map((page) => page.id);
};

describe("page lists", () => {
  it("a folder grant lists its whole subtree to the grantee, newest changed first; a page moved out leaves it", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const top = await createFolder(owner, { name: "Top" });
    const sub = await createFolder(owner, { name: "Sub", parentId: top });
    const inTop = await createPage(owner, { title: "In top", parentId: top });
    const inSub = await createPage(owner, { title: "In sub", parentId: sub });
    await createPage(owner, { title: "Not shared" });
    const grant = await owner.post(`/shares/entity/folder/${top}/grants`, { email: ann.email, permission: "view" });
    expect(grant.status).toBe(200);
    expect(await listed(ann)).toEqual([inSub, inTop]);
    expect(await listed(ann, `&parentId=${sub}`)).toEqual([inSub]);
    expect((await owner.post(`/pages/${inTop}/move`, { parentId: null })).status).toBe(200);
    expect(await listed(ann)).toEqual([inSub]);
    expect(await listed(ann, `&parentId=${top}`)).toEqual([]);
  });

  it("a page in the trash leaves every list and comes back with its restore", async () => {
    const owner = await server.registered("owner");
    const ann = await server.registered("ann");
    const folder = await createFolder(owner, { name: "Shared" });
    const first = await createPage(owner, { title: "First", parentId: folder });
    const second = await createPage(owner, { title: "Second", parentId: folder });
    await owner.post(`/shares/entity/folder/${folder}/grants`, { email: ann.email, permission: "view" });
    expect(await listed(ann)).toEqual([second, first]);
    expect((await owner.delete(`/pages/${first}`)).status).toBe(204);
    expect(await listed(ann)).toEqual([second]);
    expect(await listed(owner)).toEqual([second]);
    expect((await owner.post(`/trash/page/${first}/restore`)).status).toBeLessThan(300);
    expect(await listed(ann)).toEqual([first, second]);
  });

  it("a member removed from a group, or the group's grant revoked, loses its pages from their list at once", async () => {
    const owner = await server.registered("owner");
    const member = await server.registered("member");
    const group = await owner.post("/groups", { name: "Readers" });
    const groupId = String(group.body.id);
    expect((await owner.post(`/groups/${groupId}/members`, { email: member.email })).status).toBeLessThan(300);
    const folder = await createFolder(owner, { name: "Team" });
    const pageId = await createPage(owner, { title: "Team page", parentId: folder });
    const grant = await owner.post(`/shares/entity/folder/${folder}/grants`, { groupId, permission: "view" });
    expect(grant.status).toBe(200);
    expect(await listed(member)).toEqual([pageId]);
    expect((await owner.delete(`/shares/entity/folder/${folder}/groups/${groupId}`)).status).toBe(204);
    expect(await listed(member)).toEqual([]);
    await owner.post(`/shares/entity/folder/${folder}/grants`, { groupId, permission: "view" });
    expect(await listed(member)).toEqual([pageId]);
    expect((await owner.delete(`/groups/${groupId}/members/${member.id}`)).status).toBe(204);
    expect(await listed(member)).toEqual([]);
    expect(await listed(member, `&parentId=${folder}`)).toEqual([]);
  });
});
