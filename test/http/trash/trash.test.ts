import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { folderStream } from "../../../shared/folders/folder.decider.ts";
import { folderIdSchema, pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { pageStream } from "../../../shared/pages/page.decider.ts";
import { anchor } from "../../support/threads.ts";
import { makeImage, upload } from "../../support/images.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { SseStream } from "../../support/sse.ts";
import { addMember, createFolder, createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

let server: TestServer;
/** How far the server's clock runs ahead of real time: the purge test moves it past the retention period. */
let ahead = 0;
beforeAll(async () => {
  server = await TestServer.start({ clock: () => new Date(Date.now() + ahead) });
});
afterAll(async () => {
  await server.stop();
});

type Entry = {
  type: string;
  id: string;
  title: string;
  deletedAt: string;
  deletedBy: string;
  purgeAt: string;
  parentId: string | null;
  folderPath: string;
};
const trashOf = async (user: TestUser): Promise<Entry[]> => {
  const reply = await user.get("/trash?limit=100");
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as Entry[];
};
/**
 * What an operator erasing data would look for in the read-model file: rows holding any of `ids` in a column of
 * their own, and rows holding any of `words` anywhere in a text column (the search index's own tables are
 * binary and asked through GET /search instead). Answers `table: count` for each table holding at least one.
 */
function readModelRowsOf(server: TestServer, ids: readonly string[], words: readonly string[]): Record<string, number> {
  const db = new Database(join(server.dataDir, "read-models.sqlite"), { readonly: true });
  try {
    const found: Record<string, number> = {};
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND (name NOT LIKE 'page_search%' OR name = 'page_search_docs')",
      )
      .all();
    for (const { name } of tables) {
      const columns = db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}')`)
        .all()
        .map((column) => column.name);
      const held = [
        ...ids.flatMap((id) => columns.map((column) => `"${column}" = '${id}'`)),
        ...words.flatMap((word) => columns.map((column) => `instr("${column}", '${word}') > 0`)),
      ];
      const count =
        db
          .prepare<[], number>(`SELECT count(*) FROM "${name}" WHERE ${held.join(" OR ")}`)
          .pluck()
          .get() ?? 0;
      if (count > 0) found[name] = count;
    }
    return found;
  } finally {
    db.close();
  }
}

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
    expect(entry).toEqual({
      type: "page",
      id: pageId,
      title: "Plan",
      deletedAt: expect.any(String),
      deletedBy: ann.id,
      purgeAt: expect.any(String),
      parentId: folderId,
      folderPath: "Projects",
    });
    expect(Date.parse(entry?.purgeAt ?? "") - Date.parse(entry?.deletedAt ?? "")).toBe(30 * DAY);

    const restored = await ann.post(`/trash/page/${pageId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: pageId, title: "Plan", parentId: folderId, permission: "owner" });
    expect(body((await ann.get(`/pages/${pageId}/content`)).text)).toBe("# Goals");
    expect(((await ann.get(`/pages?parentId=${folderId}`)).body.data as Entry[]).map((page) => page.id)).toEqual([
      pageId,
    ]);
    expect(((await ann.get(`/pages/${pageId}/backlinks`)).body.data as Entry[]).map((page) => page.id)).toEqual([
      linking,
    ]);
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
});

describe("deletions recorded before the trash existed", () => {
  it("puts them in the trash from the rows they had, restorable like any other", async () => {
    const ann = await server.registered("ann");
    const folderId = await createFolder(ann, { name: "Old folder" });
    const emptied = await createFolder(ann, { name: "Emptied", parentId: folderId });
    const pageId = await createPage(ann, { title: "Old page", markdown: "old words", parentId: folderId });
    // As the service recorded deletions then: the id alone.
    const context = { actorId: userIdSchema.parse(ann.id), correlationId: "before-the-trash", now: new Date() };
    await server.internals.eventStore.append(
      pageStream(pageId),
      toNewEvents([{ type: "PageDeleted", data: { pageId: pageIdSchema.parse(pageId) } }], context),
      "any",
    );
    await server.internals.eventStore.append(
      folderStream(emptied),
      toNewEvents([{ type: "FolderDeleted", data: { folderId: folderIdSchema.parse(emptied) } }], context),
      "any",
    );
    const deadline = Date.now() + 10_000;
    while ((await ann.get(`/folders/${emptied}`)).status !== 404) {
      if (Date.now() > deadline) throw new Error("the deletions were not projected");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const listed = (await trashOf(ann)).filter((entry) => [pageId, emptied].includes(entry.id));
    expect(listed).toEqual([
      expect.objectContaining({
        type: "folder",
        id: emptied,
        title: "Emptied",
        deletedBy: ann.id,
        parentId: folderId,
        folderPath: "Old folder",
      }),
      expect.objectContaining({
        type: "page",
        id: pageId,
        title: "Old page",
        deletedBy: ann.id,
        parentId: folderId,
        folderPath: "Old folder",
      }),
    ]);
    expect((await ann.post(`/trash/page/${pageId}/restore`)).body).toMatchObject({
      id: pageId,
      title: "Old page",
      parentId: folderId,
    });
    expect(body((await ann.get(`/pages/${pageId}/content`)).text)).toBe("old words");
    expect((await ann.post(`/trash/folder/${emptied}/restore`)).body).toMatchObject({
      id: emptied,
      name: "Emptied",
      parentId: folderId,
    });
  });
});

describe("the trash of a grantee outside the workspace", () => {
  const walk = async (user: TestUser, limit: number): Promise<string[]> => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const reply = await user.get(`/trash?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(reply.status, reply.text).toBe(200);
      ids.push(...(reply.body.data as Entry[]).map((entry) => entry.id));
      cursor = (reply.body.nextCursor as string | null) ?? null;
    } while (cursor);
    return ids;
  };

  it("lists what an edit grant on the item or a folder above it lets them restore, and nothing they could not edit or see", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const viewer = await server.registered("viewer");
    const stranger = await server.registered("stranger");
    const shared = await createFolder(ann, { name: "Shared" });
    const inner = await createFolder(ann, { name: "Inner", parentId: shared });
    const elsewhere = await createFolder(ann, { name: "Elsewhere" });
    await share(ann, "folder", shared, bea.email, "edit");
    await share(ann, "folder", shared, viewer.email, "view");
    const deep = await createPage(ann, { title: "Deep", parentId: inner });
    const direct = await createPage(ann, { title: "Direct" });
    await share(ann, "page", direct, bea.email, "edit");
    const viewed = await createPage(ann, { title: "Viewed only" });
    await share(ann, "page", viewed, bea.email, "view");
    const notShared = await createPage(ann, { title: "Not shared" });
    const later = await createPage(ann, { title: "Moved in later", parentId: elsewhere });
    const innerFolder = await createFolder(ann, { name: "Gone folder", parentId: shared });
    for (const id of [deep, direct, viewed, notShared, later])
      expect((await ann.delete(`/pages/${id}`)).status).toBe(204);
    expect((await ann.delete(`/folders/${innerFolder}`)).status).toBe(204);

    expect(await walk(bea, 100)).toEqual([innerFolder, direct, deep]);
    expect(await walk(bea, 1)).toEqual([innerFolder, direct, deep]);
    expect(await trashOf(viewer)).toEqual([]);
    expect(await trashOf(stranger)).toEqual([]);
    expect((await trashOf(bea)).find((entry) => entry.id === deep)).toMatchObject({
      parentId: inner,
      folderPath: "Shared/Inner",
    });

    // Folders move after the deletion: what now lies below the granted folder is listed, what left it is not.
    expect((await ann.post(`/folders/${elsewhere}/move`, { parentId: shared })).status).toBe(200);
    expect((await ann.post(`/folders/${inner}/move`, { parentId: null })).status).toBe(200);
    expect(await walk(bea, 2)).toEqual([innerFolder, later, direct]);
    expect((await bea.post(`/trash/page/${later}/restore`)).status).toBe(200);
    expect((await bea.post(`/trash/page/${deep}/restore`)).status).toBe(404);
  });
});

describe("folders in the trash", () => {
  it("deletes a folder with everything below it in one request; without recursive a non-empty folder is still 409", async () => {
    const ann = await server.registered("ann");
    const top = await createFolder(ann, { name: "Top" });
    const inner = await createFolder(ann, { name: "Inner", parentId: top });
    const page = await createPage(ann, { title: "Deep", parentId: inner });
    const beside = await createPage(ann, { title: "Beside", parentId: top });
    expect((await ann.delete(`/folders/${top}`)).status).toBe(409);
    expect((await ann.delete(`/folders/${top}?recursive=true`)).status).toBe(204);
    for (const path of [`/folders/${top}`, `/folders/${inner}`, `/pages/${page}`, `/pages/${beside}`])
      expect((await ann.get(path)).status).toBe(404);
    // One entry for the whole deletion: what went with the folder comes back with it.
    expect((await trashOf(ann)).filter((entry) => [top, inner, page, beside].includes(entry.id))).toEqual([
      expect.objectContaining({ type: "folder", id: top, title: "Top", parentId: null, folderPath: "" }),
    ]);
    expect((await ann.post(`/trash/page/${page}/restore`)).status).toBe(404);
  });

  it("restoring a folder brings back what was deleted with it, not what had been deleted before", async () => {
    const ann = await server.registered("ann");
    const parent = await createFolder(ann, { name: "Parent" });
    const top = await createFolder(ann, { name: "Top", parentId: parent });
    const inner = await createFolder(ann, { name: "Inner", parentId: top });
    const kept = await createPage(ann, { title: "Kept", parentId: inner, markdown: "kept words" });
    const earlier = await createPage(ann, { title: "Earlier", parentId: top });
    await ann.delete(`/pages/${earlier}`);
    expect((await ann.delete(`/folders/${top}?recursive=true`)).status).toBe(204);

    const restored = await ann.post(`/trash/folder/${top}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: top, name: "Top", parentId: parent, permission: "owner" });
    expect((await ann.get(`/folders/${inner}`)).body).toMatchObject({ parentId: top });
    const page = await ann.get(`/pages/resolve?title=Kept`);
    expect(page.body.data).toEqual([
      expect.objectContaining({ id: kept, parentId: inner, folderPath: "Parent/Top/Inner" }),
    ]);
    expect(body((await ann.get(`/pages/${kept}/content`)).text)).toBe("kept words");
    expect((await ann.get(`/pages/${earlier}`)).status).toBe(404);
    expect((await trashOf(ann)).map((entry) => entry.id)).toEqual([earlier]);
  });

  it("finishes a restore interrupted midway when it is sent again: what the deletion took along and the restore had not reached comes back", async () => {
    const ann = await server.registered("ann");
    const stranger = await server.registered("stranger");
    const top = await createFolder(ann, { name: "Top" });
    const inner = await createFolder(ann, { name: "Inner", parentId: top });
    const lower = await createFolder(ann, { name: "Lower", parentId: inner });
    const deep = await createPage(ann, { title: "Deep", parentId: lower });
    const beside = await createPage(ann, { title: "Beside", parentId: top });
    expect((await ann.delete(`/folders/${top}?recursive=true`)).status).toBe(204);
    // The restore crashed after bringing back the folder and one folder below it, as recorded in the event store.
    const context = { actorId: userIdSchema.parse(ann.id), correlationId: "crashed-restore", now: new Date() };
    for (const [id, parentId] of [
      [top, null],
      [inner, top],
    ] as const) {
      const folderId = folderIdSchema.parse(id);
      const command = {
        type: "UndeleteFolder" as const,
        folderId,
        parentId: parentId === null ? null : folderIdSchema.parse(parentId),
        createdAt: new Date().toISOString(),
      };
      await folderCommands.handle(server.internals.eventStore, folderId, command, context);
    }
    const deadline = Date.now() + 10_000;
    while ((await ann.get(`/folders/${inner}`)).status !== 200) {
      if (Date.now() > deadline) throw new Error("the partial restore was not projected");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await ann.get(`/pages/${deep}`)).status).toBe(404);

    const invisible = await stranger.post(`/trash/folder/${top}/restore`);
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(
      (await stranger.post("/trash/folder/00000000-0000-4000-8000-000000000000/restore")).text,
    );
    const again = await ann.post(`/trash/folder/${top}/restore`);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: top, name: "Top", parentId: null, permission: "owner" });
    expect((await ann.get(`/folders/${lower}`)).body).toMatchObject({ parentId: inner });
    expect((await ann.get(`/pages/${deep}`)).body).toMatchObject({ parentId: lower });
    expect((await ann.get(`/pages/${beside}`)).body).toMatchObject({ parentId: top });
    expect((await trashOf(ann)).filter((entry) => [top, inner, lower, deep, beside].includes(entry.id))).toEqual([]);
    // Nothing left to finish: as for any folder not in the trash.
    expect((await ann.post(`/trash/folder/${top}/restore`)).status).toBe(404);
  });

  it("restores a folder to the root when its folder is gone, and it can be moved and used again", async () => {
    const ann = await server.registered("ann");
    const parent = await createFolder(ann, { name: "Parent" });
    const child = await createFolder(ann, { name: "Child", parentId: parent });
    const elsewhere = await createFolder(ann, { name: "Elsewhere" });
    expect((await ann.delete(`/folders/${parent}?recursive=true`)).status).toBe(204);
    // The child was deleted along with its parent: only the parent is in the trash, and it restores in place.
    expect((await trashOf(ann)).map((entry) => entry.id)).toEqual([parent]);
    expect((await ann.post(`/trash/folder/${parent}/restore`)).status).toBe(200);
    // Now the child alone, then its parent for good: the child returns to the root.
    expect((await ann.delete(`/folders/${child}`)).status).toBe(204);
    expect((await ann.delete(`/folders/${parent}`)).status).toBe(204);
    const restored = await ann.post(`/trash/folder/${child}/restore`);
    expect(restored.body).toMatchObject({ id: child, parentId: null });
    expect((await ann.post(`/folders/${child}/move`, { parentId: elsewhere })).status).toBe(200);
    expect((await ann.post(`/folders/${elsewhere}/move`, { parentId: child })).status).toBe(409);
  });

  it("a folder in the trash the caller cannot see is 404 as a missing one; its recursive deletion needs edit", async () => {
    const ann = await server.registered("ann");
    const viewer = await server.registered("viewer");
    const stranger = await server.registered("stranger");
    const folderId = await createFolder(ann);
    await createPage(ann, { parentId: folderId });
    await share(ann, "folder", folderId, viewer.email, "view");
    expect((await viewer.delete(`/folders/${folderId}?recursive=true`)).status).toBe(403);
    expect((await stranger.delete(`/folders/${folderId}?recursive=true`)).status).toBe(404);
    expect((await ann.delete(`/folders/${folderId}?recursive=true`)).status).toBe(204);
    const invisible = await stranger.post(`/trash/folder/${folderId}/restore`);
    const missing = await stranger.post("/trash/folder/00000000-0000-4000-8000-000000000000/restore");
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(missing.text);
    expect((await viewer.post(`/trash/folder/${folderId}/restore`)).status).toBe(403);
  });
});

// Last: it moves the server's clock past the retention period for good.
describe("purging the trash", () => {
  it("purges pages and folders past the retention period: they leave the trash and cannot come back", async () => {
    const ann = await server.registered("ann");
    const pageId = await createPage(ann);
    const folderId = await createFolder(ann);
    await createPage(ann, { parentId: folderId });
    await ann.delete(`/pages/${pageId}`);
    await ann.delete(`/folders/${folderId}?recursive=true`);
    expect((await trashOf(ann)).map((entry) => entry.id)).toEqual([folderId, pageId]);
    ahead = 31 * DAY;
    // The purge runs when the command API starts, then hourly.
    await server.restart();
    const deadline = Date.now() + 10_000;
    while ((await trashOf(ann)).length > 0) {
      if (Date.now() > deadline) throw new Error("the page was not purged");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await ann.post(`/trash/page/${pageId}/restore`)).status).toBe(404);
    expect((await ann.post(`/trash/folder/${folderId}/restore`)).status).toBe(404);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(404);
  });

  it("takes a purged page and folder out of every read model and every route, and a rebuild does not bring them back", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const folderId = await createFolder(ann, { name: "Erasedfolder" });
    const other = await createPage(ann, { title: "Other" });
    const pageId = await createPage(ann, {
      title: "Erasedtitle",
      parentId: folderId,
      markdown: `erasedword [other](/api/v1/pages/${other})`,
    });
    const linking = await createPage(ann, { title: "Linking", markdown: `[gone](/api/v1/pages/${pageId})` });
    expect((await ann.patch(`/pages/${pageId}/content`, { append: "\n\nerasedword again" })).status).toBe(200);
    expect((await share(ann, "page", pageId, bea.email, "edit")).status).toBeLessThan(300);
    expect((await share(ann, "folder", folderId, bea.email, "view")).status).toBeLessThan(300);
    expect((await share(ann, "page", pageId, unknownAddress(), "view")).status).toBeLessThan(300);
    const thread = await ann.post(`/pages/${pageId}/comments`, { body: "erasedcomment", anchor });
    expect(thread.status).toBe(201);
    const threadId = String(thread.body.id);
    const image = await upload(ann, pageId, {
      file: { bytes: await makeImage("png"), name: "erased.png" },
      alt: "erasedalt",
    });
    expect(image.status).toBe(201);
    const imageId = String(image.body.id);
    expect((await ann.delete(`/folders/${folderId}?recursive=true`)).status).toBe(204);
    const ids = [pageId, folderId, threadId, imageId];
    const words = ["Erasedtitle", "erasedword", "erasedcomment", "erasedalt", "Erasedfolder"];
    // Deleted, not purged: the trash and the history still hold them.
    expect(Object.keys(readModelRowsOf(server, ids, words)).length).toBeGreaterThan(0);

    ahead += 31 * DAY;
    await server.restart();
    const deadline = Date.now() + 10_000;
    while ((await trashOf(ann)).some((entry) => entry.id === folderId)) {
      if (Date.now() > deadline) throw new Error("the folder was not purged");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const path of [
      `/pages/${pageId}`,
      `/pages/${pageId}/content`,
      `/pages/${pageId}/history`,
      `/pages/${pageId}/comments`,
      `/pages/${pageId}/backlinks`,
      `/shares/entity/page/${pageId}`,
      `/folders/${folderId}`,
      `/folders/${folderId}/history`,
      `/shares/entity/folder/${folderId}`,
      `/images/${imageId}`,
    ]) {
      expect((await ann.get(path)).status, path).toBe(404);
    }
    expect((await ann.get("/search?q=erasedword")).body.data).toEqual([]);
    expect(((await ann.get(`/pages/${other}/backlinks`)).body.data as Entry[]).map((page) => page.id)).toEqual([]);
    // The change feed from the start: the purged items' changes are gone from it, and the purge shows nothing.
    const feed = await SseStream.open(`${server.url}/api/v1/changes?after=0`, ann.credentials);
    try {
      await feed.until(() => feed.changes().some((change) => change.entity.id === linking));
      expect(feed.changes().filter((change) => ids.includes(change.entity.id))).toEqual([]);
    } finally {
      feed.close();
    }
    expect(readModelRowsOf(server, ids, words)).toEqual({});

    await server.rebuildReadModels();
    expect(readModelRowsOf(server, ids, words)).toEqual({});
    expect((await ann.get(`/pages/${linking}`)).status).toBe(200);
  });
});
