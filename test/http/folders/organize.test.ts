import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Client, TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { addMember, createFolder, createPage, share } from "../../support/workspace-builders.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { moveFolder as moveFolderCommand } from "../../../shared/folders/folder.commands.ts";
import { folderIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";

const file = serverForFile();

const registered = (label: string): Promise<TestUser> => file.server.registered(label);
const unique = (label: string): string => `${label} ${randomUUID().slice(0, 8)}`;
type Item = {
  id: string;
  parentId: string | null;
  name?: string;
  title?: string;
  folderPath?: string;
  permission: string;
};

async function listedPageIds(client: Client, parentId?: string): Promise<string[]> {
  const reply = await client.get(parentId ? `/pages?parentId=${parentId}&limit=100` : "/pages?limit=100");
  return (reply.body.data as Item[]).map((page) => page.id);
}
async function listedFolderIds(client: Client): Promise<string[]> {
  return ((await client.get("/folders?limit=100")).body.data as Item[]).map((folder) => folder.id);
}
async function resolved(client: Client, title: string): Promise<Item[]> {
  return (await client.get(`/pages/resolve?title=${encodeURIComponent(title)}`)).body.data as Item[];
}
const movePage = (client: Client, pageId: string, parentId: string | null) =>
  client.post(`/pages/${pageId}/move`, { parentId });
const moveFolder = (client: Client, folderId: string, parentId: string | null) =>
  client.post(`/folders/${folderId}/move`, { parentId });

describe("moving a page", () => {
  it("moves a page into a folder and back to the root: folderPath, list and resolve follow at once", async () => {
    const ann = await registered("ann");
    const outer = await createFolder(ann, { name: "Projects" });
    const inner = await createFolder(ann, { name: "Launch", parentId: outer });
    const title = unique("Checklist");
    const pageId = await createPage(ann, { title });

    const moved = await movePage(ann, pageId, inner);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      id: pageId,
      parentId: inner,
      folderPath: "Projects/Launch",
      permission: "owner",
    });
    expect(moved.headers.get("x-consistency-token")).toMatch(/^\d+$/);
    expect(await listedPageIds(ann, inner)).toEqual([pageId]);
    expect(await resolved(ann, title)).toEqual([
      expect.objectContaining({ id: pageId, parentId: inner, folderPath: "Projects/Launch" }),
    ]);
    expect((await ann.get(`/pages/${pageId}/content`)).text).toContain(`folderPath: "Projects/Launch"`);

    const back = await movePage(ann, pageId, null);
    expect(back.body).toMatchObject({ parentId: null, folderPath: "" });
    expect(await listedPageIds(ann, inner)).toEqual([]);
    expect(await resolved(ann, title)).toEqual([
      expect.objectContaining({ id: pageId, parentId: null, folderPath: "" }),
    ]);
  });

  it("moving a page where it already is answers 200 and records nothing", async () => {
    const ann = await registered("ann");
    const folderId = await createFolder(ann);
    const pageId = await createPage(ann, { parentId: folderId });
    const before = await ann.get(`/pages/${pageId}`);
    const again = await movePage(ann, pageId, folderId);
    expect(again.status).toBe(200);
    expect(again.body.updatedAt).toBe(before.body.updatedAt);
  });

  it("needs edit on the page: a viewer gets 403, a stranger 404", async () => {
    const owner = await registered("owner");
    const viewer = await registered("viewer");
    const stranger = await registered("stranger");
    const pageId = await createPage(owner);
    const destination = await createFolder(owner);
    await share(owner, "page", pageId, viewer.email, "view");
    await share(owner, "folder", destination, viewer.email, "edit");
    expect((await movePage(viewer, pageId, destination)).status).toBe(403);
    expect((await movePage(viewer, pageId, destination)).body.error?.code).toBe("forbidden");
    expect((await movePage(stranger, pageId, destination)).status).toBe(404);
  });

  it("needs edit on the destination: 404 for a folder the caller cannot see, 403 for one they only view", async () => {
    const owner = await registered("owner");
    const editor = await registered("editor");
    const pageId = await createPage(owner);
    const hidden = await createFolder(owner);
    const viewable = await createFolder(owner);
    await share(owner, "page", pageId, editor.email, "edit");
    await share(owner, "folder", viewable, editor.email, "view");
    expect((await movePage(editor, pageId, hidden)).status).toBe(404);
    expect((await movePage(editor, pageId, viewable)).status).toBe(403);
    await share(owner, "folder", viewable, editor.email, "edit");
    const moved = await movePage(editor, pageId, viewable);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ parentId: viewable, permission: "edit" });
  });

  it("moves only within the owner's workspace: a folder of another owner is 409, their root 403 without a workspace role", async () => {
    const ann = await registered("ann");
    const bob = await registered("bob");
    const annPage = await createPage(ann);
    const bobFolder = await createFolder(bob);
    await share(bob, "folder", bobFolder, ann.email, "edit");
    const crossed = await movePage(ann, annPage, bobFolder);
    expect(crossed.status).toBe(409);
    expect(crossed.body.error?.code).toBe("conflict");

    const bobPage = await createPage(bob, { parentId: bobFolder });
    expect((await movePage(ann, bobPage, null)).status).toBe(403);
    await addMember(bob, ann.email, "editor");
    expect((await movePage(ann, bobPage, null)).body).toMatchObject({ parentId: null, ownerId: bob.id });
  });

  it("a page that loses inherited access through a move leaves that caller's lists and resolve, and answers 404", async () => {
    const owner = await registered("owner");
    const reader = await registered("reader");
    const shared = await createFolder(owner, { name: "Shared" });
    const title = unique("Plan");
    const pageId = await createPage(owner, { title, parentId: shared });
    await share(owner, "folder", shared, reader.email, "view");
    expect(await listedPageIds(reader)).toContain(pageId);

    expect((await movePage(owner, pageId, null)).status).toBe(200);
    expect(await listedPageIds(reader)).not.toContain(pageId);
    expect(await resolved(reader, title)).toEqual([]);
    expect((await reader.get(`/pages/${pageId}`)).status).toBe(404);
    expect((await reader.get(`/pages/${pageId}/content`)).status).toBe(404);

    expect((await movePage(owner, pageId, shared)).status).toBe(200);
    expect(await listedPageIds(reader)).toContain(pageId);
    expect(await resolved(reader, title)).toEqual([
      expect.objectContaining({ id: pageId, permission: "view", folderPath: "Shared" }),
    ]);
  });

  it("validates the body: parentId is required, a uuid or null, and nothing else is accepted", async () => {
    const ann = await registered("ann");
    const pageId = await createPage(ann);
    for (const body of [{}, { parentId: "nope" }, { parentId: null, title: "x" }]) {
      const reply = await ann.post(`/pages/${pageId}/move`, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
    expect((await movePage(ann, pageId, randomUUID())).status).toBe(404);
  });

  it("a token needs pages:write", async () => {
    const ann = await registered("ann");
    const pageId = await createPage(ann);
    const reader = await file.server.tokenClient(ann, ["pages:read"]);
    expect((await movePage(reader, pageId, null)).status).toBe(403);
    expect((await movePage(reader, pageId, null)).body.error?.code).toBe("insufficient_scope");
  });
});

describe("renaming a folder", () => {
  it("renames a folder: the folders and pages below it take the new folderPath at once", async () => {
    const ann = await registered("ann");
    const top = await createFolder(ann, { name: "Drafts" });
    const sub = await createFolder(ann, { name: "Q1", parentId: top });
    const title = unique("Budget");
    const pageId = await createPage(ann, { title, parentId: sub });
    const renamed = await ann.patch(`/folders/${top}`, { name: "Archive", icon: "🗄️" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: top, name: "Archive", icon: "🗄️", parentId: null, permission: "owner" });
    expect(await resolved(ann, title)).toEqual([expect.objectContaining({ id: pageId, folderPath: "Archive/Q1" })]);
    expect((await ann.get(`/pages/${pageId}/content`)).text).toContain(`folderPath: "Archive/Q1"`);
    expect((await ann.get(`/folders/${sub}`)).body).toMatchObject({ name: "Q1", parentId: top });
  });

  it("needs edit on the folder; the name follows the folder-name rules", async () => {
    const owner = await registered("owner");
    const viewer = await registered("viewer");
    const editor = await registered("editor");
    const folderId = await createFolder(owner, { name: "Team" });
    await share(owner, "folder", folderId, viewer.email, "view");
    await share(owner, "folder", folderId, editor.email, "edit");
    expect((await viewer.patch(`/folders/${folderId}`, { name: "Mine" })).status).toBe(403);
    expect((await (await registered("stranger")).patch(`/folders/${folderId}`, { name: "Mine" })).status).toBe(404);
    for (const body of [{}, { name: "" }, { name: "a/b" }, { name: "x".repeat(201) }, { name: "ok", parentId: null }]) {
      expect((await editor.patch(`/folders/${folderId}`, body)).status).toBe(400);
    }
    expect((await editor.patch(`/folders/${folderId}`, { name: "Team (old)" })).body).toMatchObject({
      name: "Team (old)",
      permission: "edit",
    });
  });
});

describe("moving a folder", () => {
  it("moves a folder with what is inside: folderPath and inherited access follow at once", async () => {
    const owner = await registered("owner");
    const reader = await registered("reader");
    const shared = await createFolder(owner, { name: "Shared" });
    const team = await createFolder(owner, { name: "Team" });
    const sub = await createFolder(owner, { name: "Notes", parentId: team });
    const title = unique("Minutes");
    const pageId = await createPage(owner, { title, parentId: sub });
    await share(owner, "folder", shared, reader.email, "view");
    expect(await listedPageIds(reader)).not.toContain(pageId);

    const moved = await moveFolder(owner, team, shared);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: team, parentId: shared });
    expect(await resolved(owner, title)).toEqual([
      expect.objectContaining({ id: pageId, folderPath: "Shared/Team/Notes" }),
    ]);
    expect(await listedPageIds(reader)).toContain(pageId);
    expect(await listedFolderIds(reader)).toEqual(expect.arrayContaining([team, sub]));
    expect((await reader.get(`/pages/${pageId}`)).body.permission).toBe("view");
    expect(await resolved(reader, title)).toEqual([
      expect.objectContaining({ id: pageId, folderPath: "Shared/Team/Notes" }),
    ]);

    expect((await moveFolder(owner, team, null)).status).toBe(200);
    expect(await listedPageIds(reader)).not.toContain(pageId);
    expect(await listedFolderIds(reader)).not.toContain(sub);
    expect(await resolved(reader, title)).toEqual([]);
    expect((await reader.get(`/pages/${pageId}`)).status).toBe(404);
    expect(await resolved(owner, title)).toEqual([expect.objectContaining({ folderPath: "Team/Notes" })]);
  });

  it("never into itself or a folder below it: 409", async () => {
    const ann = await registered("ann");
    const a = await createFolder(ann, { name: "A" });
    const b = await createFolder(ann, { name: "B", parentId: a });
    const c = await createFolder(ann, { name: "C", parentId: b });
    for (const target of [a, b, c]) {
      const reply = await moveFolder(ann, a, target);
      expect(reply.status).toBe(409);
      expect(reply.body.error?.code).toBe("conflict");
    }
    expect((await moveFolder(ann, c, a)).status).toBe(200);
    expect((await moveFolder(ann, b, c)).status).toBe(200);
    expect((await ann.get(`/folders/${b}`)).body.parentId).toBe(c);
  });

  it("of two concurrent moves that would together make a cycle, exactly one succeeds", async () => {
    const ann = await registered("ann");
    for (let round = 0; round < 5; round += 1) {
      const a = await createFolder(ann, { name: "A" });
      const b = await createFolder(ann, { name: "B" });
      const [first, second] = await Promise.all([moveFolder(ann, a, b), moveFolder(ann, b, a)]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      const parents = [(await ann.get(`/folders/${a}`)).body.parentId, (await ann.get(`/folders/${b}`)).body.parentId];
      expect(parents.filter((parent) => parent === null)).toHaveLength(1);
    }
  });

  it("when both moves read the tree before either appends, the second append conflicts and is refused on the new tree", async () => {
    const ann = await registered("ann");
    const a = folderIdSchema.parse(await createFolder(ann, { name: "A" }));
    const b = folderIdSchema.parse(await createFolder(ann, { name: "B" }));
    const { eventStore, readStore } = file.server.internals;
    // A barrier on the tree stream's read: neither move goes on until both have read the tree as it was.
    let waiting: Array<() => void> = [];
    let treeReads = 0;
    const gated: EventStore = Object.assign(Object.create(eventStore) as EventStore, {
      async read(stream: string) {
        const result = await eventStore.read(stream);
        if (stream.startsWith("folder-tree-") && treeReads < 2) {
          treeReads += 1;
          await new Promise<void>((resolve) => {
            waiting.push(resolve);
            if (waiting.length === 2) {
              for (const release of waiting) release();
              waiting = [];
            }
          });
        }
        return result;
      },
    });
    const user = await readStore.users.get(ann.id);
    if (!user) throw new Error("ann is not registered");
    const actor = {
      principal: { user, authentication: "session" as const, scopes: null, tokenId: null, expiresAt: null },
      context: { actorId: userIdSchema.parse(ann.id), correlationId: randomUUID(), now: new Date() },
    };
    const ports = { eventStore: gated, views: readStore };
    const outcomes = await Promise.allSettled([
      moveFolderCommand(ports, actor, a, b),
      moveFolderCommand(ports, actor, b, a),
    ]);
    expect(treeReads).toBe(2);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((outcome) => outcome.status === "rejected");
    expect(refused?.status === "rejected" ? String(refused.reason) : "").toContain("cannot be moved into itself");
    const tree = await eventStore.read(`folder-tree-${ann.id}`);
    expect(tree.events).toHaveLength(1);
  });

  it("needs edit on the folder and on the destination, within the owner's workspace", async () => {
    const owner = await registered("owner");
    const editor = await registered("editor");
    const folderId = await createFolder(owner);
    const destination = await createFolder(owner);
    await share(owner, "folder", folderId, editor.email, "edit");
    expect((await moveFolder(editor, folderId, destination)).status).toBe(404);
    await share(owner, "folder", destination, editor.email, "view");
    expect((await moveFolder(editor, folderId, destination)).status).toBe(403);
    await share(owner, "folder", destination, editor.email, "edit");
    expect((await moveFolder(editor, folderId, destination)).status).toBe(200);
    expect((await moveFolder(editor, folderId, null)).status).toBe(403);
    const own = await createFolder(editor);
    expect((await moveFolder(editor, own, destination)).status).toBe(409);
  });
});

describe("deleting a folder", () => {
  it("is refused with 409 while a page or folder is inside; an empty folder is deleted (204) and gone for everyone", async () => {
    const owner = await registered("owner");
    const reader = await registered("reader");
    const folderId = await createFolder(owner);
    const sub = await createFolder(owner, { parentId: folderId });
    await share(owner, "folder", folderId, reader.email, "view");
    const full = await owner.delete(`/folders/${folderId}`);
    expect(full.status).toBe(409);
    expect(full.body.error?.code).toBe("conflict");
    expect((await owner.delete(`/folders/${sub}`)).status).toBe(204);

    const pageId = await createPage(owner, { parentId: folderId });
    expect((await owner.delete(`/folders/${folderId}`)).status).toBe(409);
    expect((await owner.delete(`/pages/${pageId}`)).status).toBe(204);

    const deleted = await owner.delete(`/folders/${folderId}`);
    expect(deleted.status).toBe(204);
    expect((await owner.get(`/folders/${folderId}`)).status).toBe(404);
    expect(await listedFolderIds(owner)).not.toContain(folderId);
    expect(await listedFolderIds(reader)).not.toContain(folderId);
    expect((await owner.delete(`/folders/${folderId}`)).status).toBe(404);
    expect((await owner.post("/pages", { title: "late", parentId: folderId })).status).toBe(404);
    expect((await owner.patch(`/folders/${folderId}`, { name: "again" })).status).toBe(404);
  });

  it("a page moved out empties the folder", async () => {
    const ann = await registered("ann");
    const folderId = await createFolder(ann);
    const pageId = await createPage(ann, { parentId: folderId });
    expect((await ann.delete(`/folders/${folderId}`)).status).toBe(409);
    await movePage(ann, pageId, null);
    expect((await ann.delete(`/folders/${folderId}`)).status).toBe(204);
    expect((await ann.get(`/pages/${pageId}`)).status).toBe(200);
  });

  it("needs edit on the folder", async () => {
    const owner = await registered("owner");
    const viewer = await registered("viewer");
    const folderId = await createFolder(owner);
    await share(owner, "folder", folderId, viewer.email, "view");
    expect((await viewer.delete(`/folders/${folderId}`)).status).toBe(403);
    expect((await (await registered("stranger")).delete(`/folders/${folderId}`)).status).toBe(404);
  });
});

describe("replay", () => {
  it("rebuilding the read models from the history gives the same tree after moves, renames and deletions", async () => {
    const ann = await registered("ann");
    const a = await createFolder(ann, { name: "Alpha" });
    const b = await createFolder(ann, { name: "Beta" });
    const title = unique("Replayed");
    const pageId = await createPage(ann, { title, parentId: b });
    await moveFolder(ann, b, a);
    await ann.patch(`/folders/${a}`, { name: "Gamma" });
    const gone = await createFolder(ann);
    await ann.delete(`/folders/${gone}`);
    await file.server.rebuildReadModels();
    expect(await resolved(ann, title)).toEqual([expect.objectContaining({ id: pageId, folderPath: "Gamma/Beta" })]);
    expect((await ann.get(`/folders/${gone}`)).status).toBe(404);
    expect((await ann.get(`/folders/${b}`)).body.parentId).toBe(a);
  });
});
