import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../support/server.ts";
import { addMember, createFolder, createPage, share } from "../support/workspace-builders.ts";

let server: TestServer;
/** How far the server's clock runs ahead of real time: the purge test moves it past the retention period. */
let ahead = 0;
beforeAll(async () => {
  server = await TestServer.start({ clock: () => new Date(Date.now() + ahead) });
});
afterAll(async () => {
  await server.stop();
});

type Entry = { type: string; id: string; title: string; deletedAt: string; deletedBy: string; purgeAt: string; parentId: string | null; folderPath: string };
const trashOf = async (user: TestUser): Promise<Entry[]> => {
  const reply = await user.get("/trash?limit=100");
  expect(reply.status).toBe(200);
  return reply.body.data as Entry[];
};
const body = (document: string): string => document.replace(/^---\n[\s\S]*?\n---\n/, "");
const DAY = 24 * 60 * 60 * 1000;

describe("the trash", () => {
  it("keeps a deleted page, lists it with when it will be purged, and restores it where it was with its content", async () => {
    const ann = await server.registered("ann");
    const folderId = await createFolder(ann, { name: "Projects" });
    const pageId = await createPage(ann, { title: "Plan", markdown: "# Goals", parentId: folderId });
    const linking = await createPage(ann, { markdown: `[plan](/api/v1/pages/${pageId})` });
    expect((await ann.delete(`/pages/${pageId}`)).status).toBe(204);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);

    const [entry] = await trashOf(ann);
    expect(entry).toEqual({ type: "page", id: pageId, title: "Plan", deletedAt: expect.any(String), deletedBy: ann.id, purgeAt: expect.any(String), parentId: folderId, folderPath: "Projects" });
    expect(Date.parse(entry?.purgeAt ?? "") - Date.parse(entry?.deletedAt ?? "")).toBe(30 * DAY);

    const restored = await ann.post(`/trash/page/${pageId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: pageId, title: "Plan", parentId: folderId, permission: "owner" });
    expect(body((await ann.get(`/pages/${pageId}/content`)).text)).toBe("# Goals");
    expect(((await ann.get(`/pages?parentId=${folderId}`)).body.data as Entry[]).map((page) => page.id)).toEqual([pageId]);
    expect(((await ann.get(`/pages/${pageId}/backlinks`)).body.data as Entry[]).map((page) => page.id)).toEqual([linking]);
    expect(await trashOf(ann)).toEqual([]);
    expect((await ann.post(`/trash/page/${pageId}/restore`)).status).toBe(404);
    const history = (await ann.get(`/pages/${pageId}/history?limit=1`)).body.data as Array<{ changes: unknown }>;
    expect(history[0]?.changes).toEqual({ kind: "undeleted", parentId: folderId });
  });

  it("restores to the root when the page's folder is gone", async () => {
    const ann = await server.registered("ann");
    const folderId = await createFolder(ann);
    const pageId = await createPage(ann, { parentId: folderId });
    await ann.delete(`/pages/${pageId}`);
    expect((await ann.delete(`/folders/${folderId}`)).status).toBe(204);
    expect((await trashOf(ann)).find((entry) => entry.id === pageId)).toMatchObject({ parentId: null, folderPath: "" });
    const restored = await ann.post(`/trash/page/${pageId}/restore`);
    expect(restored.body).toMatchObject({ id: pageId, parentId: null });
  });

  it("shows an editor of the workspace its trash; an item the caller cannot see is 404 exactly as a missing one, one they may only view 403", async () => {
    const ann = await server.registered("ann");
    const editor = await server.registered("editor");
    const viewer = await server.registered("viewer");
    const stranger = await server.registered("stranger");
    await addMember(ann, editor.email, "editor");
    await addMember(ann, viewer.email, "viewer");
    const pageId = await createPage(ann, { title: "Secret plan" });
    await ann.delete(`/pages/${pageId}`);

    expect((await trashOf(editor)).map((entry) => entry.id)).toContain(pageId);
    expect((await trashOf(viewer)).map((entry) => entry.id)).not.toContain(pageId);
    expect((await trashOf(stranger)).map((entry) => entry.id)).not.toContain(pageId);

    const invisible = await stranger.post(`/trash/page/${pageId}/restore`);
    const missing = await stranger.post("/trash/page/00000000-0000-4000-8000-000000000000/restore");
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(missing.text);
    expect((await viewer.post(`/trash/page/${pageId}/restore`)).status).toBe(403);
    expect((await editor.post(`/trash/page/${pageId}/restore`)).status).toBe(200);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(200);
  });

  it("lists a page shared for editing to its grantee too, once deleted", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const folderId = await createFolder(ann);
    await share(ann, "folder", folderId, bea.email, "edit");
    const pageId = await createPage(ann, { parentId: folderId });
    await bea.delete(`/pages/${pageId}`);
    expect((await trashOf(ann)).find((entry) => entry.id === pageId)).toMatchObject({ deletedBy: bea.id });
    expect((await bea.post(`/trash/page/${pageId}/restore`)).status).toBe(200);
  });

  it("purges a page past the retention period: it leaves the trash and cannot come back", async () => {
    const ann = await server.registered("ann");
    const pageId = await createPage(ann);
    await ann.delete(`/pages/${pageId}`);
    expect((await trashOf(ann)).map((entry) => entry.id)).toContain(pageId);
    ahead = 31 * DAY;
    // The purge runs when the command API starts, then hourly.
    await server.restart();
    const deadline = Date.now() + 10_000;
    while ((await trashOf(ann)).some((entry) => entry.id === pageId)) {
      if (Date.now() > deadline) throw new Error("the page was not purged");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await ann.post(`/trash/page/${pageId}/restore`)).status).toBe(404);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
  });
});
