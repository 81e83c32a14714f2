// The read-store contract: every adapter (SQLite, MongoDB, ...) must pass these. A projection store applies
// batches through its writers (as the projector does); a read store on the same storage reads (as the APIs do).
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FolderRecord } from "../../shared/folders/folders.view.ts";
import type { PageRecord } from "../../shared/pages/pages.view.ts";
import type { SearchFilters } from "../../shared/pages/page-search.ts";
import { changeOf, type Summary } from "../../shared/history/describe-history.ts";
import type { HistoryAccess, HistoryEntry, StoredFold } from "../../shared/history/history.view.ts";
import type { PageId, ThreadId, UserId } from "../../shared/kernel/ids.ts";
import type { ProjectionStore, ReadStore } from "../../shared/read-store/read-store.port.ts";
import type { ListKey, VisibleTo } from "../../shared/read-store/list-query.ts";

export type ReadStoreFactory<Tx> = () => Promise<{ projection: ProjectionStore<Tx>; reader: ReadStore; cleanup: () => Promise<void> }>;

let position = 0;
const at = () => {
  position += 1;
  return { updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(), updatedPosition: position };
};

function folder(ownerId: string, parent: FolderRecord | null = null): FolderRecord {
  const when = at();
  return { id: randomUUID(), ownerId, parentId: parent?.id ?? null, name: `f${when.updatedPosition}`, icon: null, ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [], path: parent ? `${parent.path}/f` : "f", createdAt: when.updatedAt, ...when };
}

function page(ownerId: string, parent: FolderRecord | null = null, title = "Page"): PageRecord {
  const when = at();
  return { id: randomUUID(), ownerId, parentId: parent?.id ?? null, title, icon: null, ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [], folderPath: parent?.path ?? "", createdAt: when.updatedAt, revision: 0, ...when };
}

/** A caller who sees exactly one owner's workspace. */
const everyone = (ownerId: string) => ({ ownerIds: [ownerId], pageIds: [], folderIds: [] });

export function readStoreContract<Tx>(name: string, factory: ReadStoreFactory<Tx>): void {
  describe(`ReadStore contract: ${name}`, () => {
    let projection: ProjectionStore<Tx>;
    let reader: ReadStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ projection, reader, cleanup } = await factory());
    });
    afterEach(async () => {
      await cleanup();
    });
    const batch = (work: (tx: Tx) => Promise<void>) => projection.applyBatch(position + 1, work);
    const w = () => projection.writers;

    it("moves the checkpoint with each batch and keeps neither effects nor checkpoint of a failed one", async () => {
      const user = { id: randomUUID(), email: `${randomUUID()}@example.com`, name: "A", image: null, createdAt: at().updatedAt };
      await projection.applyBatch(10, async (tx) => w().users.put(tx, user));
      expect(await reader.checkpoint()).toBe(10);
      const lost = { ...user, id: randomUUID(), email: `${randomUUID()}@example.com` };
      await expect(projection.applyBatch(11, async (tx) => {
        await w().users.put(tx, lost);
        throw new Error("projection failed");
      })).rejects.toThrow("projection failed");
      expect(await reader.checkpoint()).toBe(10);
      expect(await reader.users.get(lost.id)).toBeNull();
      expect(await reader.users.getByEmail(user.email)).toEqual(user);
    });

    it("lists exactly the pages visible through owners, page grants and ancestor folder grants, newest first, in pages", async () => {
      const me = randomUUID();
      const other = randomUUID();
      const top = folder(other);
      const inner = folder(other, top);
      const expected: string[] = [];
      await batch(async (tx) => {
        await w().folders.put(tx, top);
        await w().folders.put(tx, inner);
        for (let i = 0; i < 6; i += 1) {
          const mine = page(me);
          const shared = page(other, inner);
          await w().pages.create(tx, mine, "");
          await w().pages.create(tx, shared, "");
          await w().pages.create(tx, page(other), "");
          expected.push(mine.id, shared.id);
        }
      });
      const granted = page(other);
      await batch(async (tx) => w().pages.create(tx, granted, "body"));
      expected.push(granted.id);
      const visibleTo = { ownerIds: [me], pageIds: [granted.id], folderIds: [top.id] };
      const seen: string[] = [];
      let before: ListKey | null = null;
      for (;;) {
        const rows = await reader.pages.list({ visibleTo, before, limit: 4, parentId: null });
        const kept = rows.slice(0, 4);
        seen.push(...kept.map((row) => row.id));
        const last = kept[kept.length - 1];
        if (rows.length <= 4 || !last) break;
        before = { position: last.updatedPosition, id: last.id };
      }
      expect(seen).toEqual([...expected].reverse());
      const inFolder = await reader.pages.list({ visibleTo, before: null, limit: 50, parentId: inner.id });
      expect(inFolder).toHaveLength(6);
    });

    it("keeps the last value of every field when one batch changes a page many times", async () => {
      const record = page(randomUUID(), null, "First");
      await batch(async (tx) => {
        await w().pages.create(tx, record, "v1");
        await w().pages.change(tx, record.id, { kind: "title", title: "Second", ...at(), revision: 1 });
        await w().pages.change(tx, record.id, { kind: "icon", icon: "⭐", ...at(), revision: 2 });
                await w().pages.change(tx, record.id, { kind: "content", markdown: "v2", ...at(), revision: 3 });
        await w().pages.change(tx, record.id, { kind: "title", title: "Third", ...at(), revision: 4 });
      });
      const content = await reader.pages.getContent(record.id);
      expect(content?.page).toMatchObject({ title: "Third", icon: "⭐", revision: 4, updatedPosition: position });
      expect(content?.markdown).toBe("v2");
      expect((await reader.pages.findByTitleKey("third", everyone(record.ownerId), 10)).map((p) => p.id)).toEqual([record.id]);
      expect(await reader.pages.findByTitleKey("second", everyone(record.ownerId), 10)).toEqual([]);
    });

    it("hides a removed page from get, content, lists and title lookups", async () => {
      const owner = randomUUID();
      const record = page(owner, null, "Gone");
      await batch(async (tx) => w().pages.create(tx, record, "x"));
      await batch(async (tx) => w().pages.remove(tx, record.id));
      expect(await reader.pages.get(record.id)).toBeNull();
      expect(await reader.pages.getContent(record.id)).toBeNull();
      expect(await reader.pages.findByTitleKey("gone", everyone(owner), 10)).toEqual([]);
      expect(await reader.pages.list({ visibleTo: { ownerIds: [owner], pageIds: [], folderIds: [] }, before: null, limit: 10, parentId: null })).toEqual([]);
    });

    it("answers an access context from grants and memberships, and forgets revoked ones", async () => {
      const user = randomUUID();
      const owner = randomUUID();
      const when = at().updatedAt;
      await batch(async (tx) => {
        await w().access.putGrant(tx, { entityType: "folder", entityId: "f1", userId: user, permission: "edit", grantedBy: owner, createdAt: when, updatedAt: when }, position);
        await w().access.putGrant(tx, { entityType: "page", entityId: "p1", userId: user, permission: "view", grantedBy: owner, createdAt: when, updatedAt: when }, position);
        await w().access.putMember(tx, { id: randomUUID(), ownerId: owner, memberId: user, role: "commenter", createdAt: when }, position);
      });
      const context = await reader.access.contextFor(user);
      expect([...context.folderGrants]).toEqual([["f1", "edit"]]);
      expect([...context.pageGrants]).toEqual([["p1", "view"]]);
      expect([...context.workspaceRoles]).toEqual([[owner, "commenter"]]);
      await batch(async (tx) => {
        await w().access.removeGrant(tx, "folder", "f1", user, at().updatedPosition);
        await w().access.removeMember(tx, owner, user, position);
      });
      const after = await reader.access.contextFor(user);
      expect(after.folderGrants.size + after.workspaceRoles.size).toBe(0);
    });

    it("shows every access change to the user it concerns at once, however often that user was read before", async () => {
      const user = randomUUID();
      const bystander = randomUUID();
      const owner = randomUUID();
      const when = at().updatedAt;
      await batch(async (tx) => w().access.putMember(tx, { id: randomUUID(), ownerId: owner, memberId: user, role: "viewer", createdAt: when }, position));
      expect([...(await reader.access.contextFor(user)).workspaceRoles]).toEqual([[owner, "viewer"]]);
      expect((await reader.access.contextFor(bystander)).pageGrants.size).toBe(0);
      await batch(async (tx) => w().access.changeRole(tx, owner, user, "editor", at().updatedPosition));
      expect([...(await reader.access.contextFor(user)).workspaceRoles]).toEqual([[owner, "editor"]]);
      await batch(async (tx) => w().access.putGrant(tx, { entityType: "page", entityId: "p9", userId: bystander, permission: "comment", grantedBy: owner, createdAt: when, updatedAt: when }, at().updatedPosition));
      expect([...(await reader.access.contextFor(bystander)).pageGrants]).toEqual([["p9", "comment"]]);
      expect([...(await reader.access.contextFor(user)).workspaceRoles]).toEqual([[owner, "editor"]]);
      expect((await reader.access.membershipsOf(user)).map((m) => m.role)).toEqual(["editor"]);
    });

    it("lets a projection read, inside its batch, what the same batch wrote before", async () => {
      const owner = randomUUID();
      const parent = folder(owner);
      const record = page(owner, parent, "Before");
      const renamed = at();
      let seen: FolderRecord | null = null;
      let seenPage: PageRecord | null = null;
      await batch(async (tx) => {
        await w().folders.put(tx, parent);
        seen = await w().folders.get(tx, parent.id);
        await w().pages.create(tx, record, "x");
        await w().pages.change(tx, record.id, { kind: "title", title: "After", revision: 1, ...renamed });
        seenPage = await w().pages.get(tx, record.id);
      });
      expect(seen).toEqual(parent);
      expect(seenPage).toEqual({ ...record, title: "After", revision: 1, ...renamed });
      await batch(async (tx) => {
        await w().pages.remove(tx, record.id);
        expect(await w().pages.get(tx, record.id)).toBeNull();
      });
    });

    it("finds pages by title only among those the caller can see, however many foreign pages share the title", async () => {
      const me = randomUUID();
      const stranger = randomUUID();
      const mine = page(me, null, "Budget");
      await batch(async (tx) => w().pages.create(tx, mine, ""));
      await batch(async (tx) => {
        for (let i = 0; i < 1_000; i += 1) await w().pages.create(tx, page(stranger, null, " budget "), "");
      });
      const found = await reader.pages.findByTitleKey("budget", { ownerIds: [me], pageIds: [], folderIds: [] }, 1);
      expect(found.map((p) => p.id)).toEqual([mine.id]);
      expect(await reader.pages.findByTitleKey("budget", { ownerIds: [randomUUID()], pageIds: [], folderIds: [] }, 10)).toEqual([]);
      const top = folder(stranger);
      const inGrantedFolder = page(stranger, folder(stranger, top), "Budget");
      const granted = page(stranger, null, "Budget");
      await batch(async (tx) => {
        await w().pages.create(tx, inGrantedFolder, "");
        await w().pages.create(tx, granted, "");
      });
      const throughGrants = await reader.pages.findByTitleKey("budget", { ownerIds: [me], pageIds: [granted.id], folderIds: [top.id] }, 10);
      expect(throughGrants.map((p) => p.id)).toEqual([granted.id, inGrantedFolder.id, mine.id]);
    });

    it("gives back an uploaded image's record as stored, and nothing for an unknown id", async () => {
      const image = {
        id: randomUUID(),
        pageId: randomUUID(),
        uploaderId: randomUUID(),
        filename: "f.png",
        originalName: "Scan – été.PNG",
        mimeType: "image/png" as const,
        size: 1234,
        width: 40,
        height: 30,
        alt: "a [bracketed] alt",
        sha256: "a".repeat(64),
        createdAt: at().updatedAt,
      };
      await batch(async (tx) => w().images.put(tx, image));
      expect(await reader.images.get(image.id)).toEqual(image);
      expect(await reader.images.get(randomUUID())).toBeNull();
    });

    it("places a moved folder's subtree: folders and pages below take the new ancestors and path, and count as changed", async () => {
      const owner = randomUUID();
      const stranger = randomUUID();
      const named = (name: string, parent: FolderRecord | null): FolderRecord => ({ ...folder(owner, parent), name, path: parent ? `${parent.path}/${name}` : name });
      const a = named("A", null);
      const b = named("B", null);
      const c = named("C", b);
      const inside = page(owner, c, "Deep");
      await batch(async (tx) => {
        for (const f of [a, b, c]) await w().folders.put(tx, f);
        await w().pages.create(tx, inside, "");
      });
      const moved = at();
      const placedB: FolderRecord = { ...b, parentId: a.id, ancestorIds: [a.id], path: "A/B", ...moved };
      await batch(async (tx) => {
        await w().folders.place(tx, placedB, moved);
        await w().pages.placeBelow(tx, placedB, moved);
      });
      expect(await reader.folders.get(c.id)).toMatchObject({ ancestorIds: [b.id, a.id], path: "A/B/C", updatedPosition: moved.updatedPosition });
      expect(await reader.pages.get(inside.id)).toMatchObject({ ancestorIds: [c.id, b.id, a.id], folderPath: "A/B/C", updatedPosition: moved.updatedPosition });
      const throughA = { ownerIds: [stranger], pageIds: [], folderIds: [a.id] };
      expect((await reader.pages.list({ visibleTo: throughA, before: null, limit: 10, parentId: null })).map((p) => p.id)).toEqual([inside.id]);
      expect((await reader.folders.list({ visibleTo: throughA, before: null, limit: 10 })).map((f) => f.id).sort()).toEqual([a.id, b.id, c.id].sort());

      const renamedA: FolderRecord = { ...a, name: "Z", path: "Z", ...at() };
      await batch(async (tx) => {
        await w().folders.place(tx, renamedA, null);
        await w().pages.placeBelow(tx, renamedA, null);
      });
      expect(await reader.pages.get(inside.id)).toMatchObject({ folderPath: "Z/B/C", updatedPosition: moved.updatedPosition });
      expect(await reader.folders.get(c.id)).toMatchObject({ path: "Z/B/C" });
    });

    it("pages through items sharing one position (a folder move) one by one, by id, through every source", async () => {
      const owner = randomUUID();
      const destination = { ...folder(owner), name: "D", path: "D" };
      const moving = { ...folder(owner), name: "M", path: "M" };
      const records = Array.from({ length: 11 }, () => page(owner, moving));
      await batch(async (tx) => {
        for (const f of [destination, moving]) await w().folders.put(tx, f);
        for (const record of records) await w().pages.create(tx, record, "");
      });
      const moved = at();
      const placed: FolderRecord = { ...moving, parentId: destination.id, ancestorIds: [destination.id], path: "D/M", ...moved };
      await batch(async (tx) => {
        await w().folders.place(tx, placed, moved);
        await w().pages.placeBelow(tx, placed, moved);
      });
      const walk = async (visibleTo: VisibleTo, parentId: string | null): Promise<string[]> => {
        const seen: string[] = [];
        for (let before: ListKey | null = null; ; ) {
          const rows = await reader.pages.list({ visibleTo, before, limit: 4, parentId });
          const kept = rows.slice(0, 4);
          seen.push(...kept.map((row) => row.id));
          const last = kept[kept.length - 1];
          if (rows.length <= 4 || !last) return seen;
          before = { position: last.updatedPosition, id: last.id };
        }
      };
      const expected = records.map((r) => r.id).sort().reverse();
      const throughDestination = { ownerIds: [randomUUID()], pageIds: [], folderIds: [destination.id] };
      const throughPages = { ownerIds: [randomUUID()], pageIds: records.map((r) => r.id), folderIds: [] };
      for (const visibleTo of [everyone(owner), throughDestination, throughPages]) {
        expect(await walk(visibleTo, null)).toEqual(expected);
        expect(await walk(visibleTo, moving.id)).toEqual(expected);
      }
    });

    it("moves a page: its place, its visibility through folder grants and its position in lists", async () => {
      const owner = randomUUID();
      const shared = { ...folder(owner), name: "S", path: "S" };
      const record = page(owner, shared, "Moving");
      await batch(async (tx) => {
        await w().folders.put(tx, shared);
        await w().pages.create(tx, record, "");
      });
      const throughShared = { ownerIds: [randomUUID()], pageIds: [], folderIds: [shared.id] };
      expect((await reader.pages.list({ visibleTo: throughShared, before: null, limit: 10, parentId: null })).map((p) => p.id)).toEqual([record.id]);
      const moved = at();
      await batch(async (tx) => w().pages.move(tx, record.id, { parentId: null, ancestorIds: [], folderPath: "" }, { ...moved, revision: 1 }));
      expect(await reader.pages.get(record.id)).toMatchObject({ parentId: null, ancestorIds: [], folderPath: "", revision: 1, updatedPosition: moved.updatedPosition });
      expect(await reader.pages.list({ visibleTo: throughShared, before: null, limit: 10, parentId: null })).toEqual([]);
      expect(await reader.pages.findByTitleKey("moving", throughShared, 10)).toEqual([]);
      expect(await reader.folders.isEmpty(shared.id)).toBe(true);
    });

    it("says whether a folder holds anything, and removes a folder", async () => {
      const owner = randomUUID();
      const top = folder(owner);
      const child = folder(owner, top);
      const record = page(owner, child);
      await batch(async (tx) => {
        await w().folders.put(tx, top);
        await w().folders.put(tx, child);
        await w().pages.create(tx, record, "");
      });
      expect(await reader.folders.isEmpty(top.id)).toBe(false);
      expect(await reader.folders.isEmpty(child.id)).toBe(false);
      await batch(async (tx) => w().pages.remove(tx, record.id));
      expect(await reader.folders.isEmpty(child.id)).toBe(true);
      await batch(async (tx) => w().folders.remove(tx, child.id));
      expect(await reader.folders.get(child.id)).toBeNull();
      expect(await reader.folders.isEmpty(top.id)).toBe(true);
      expect((await reader.folders.list({ visibleTo: everyone(owner), before: null, limit: 10 })).map((f) => f.id)).toEqual([top.id]);
    });

    it("searches titles and markdown of visible live pages: title hits first, phrases, prefixes, folded case and diacritics, marked snippets", async () => {
      const me = randomUUID();
      const other = randomUUID();
      const top = folder(other);
      const inTitle = page(me, null, "Résumé of the plan");
      const inBody = page(me, null, "Notes");
      const throughFolder = page(other, top, "Folder page");
      const hidden = page(other, null, "Resume hidden");
      const gone = page(me, null, "Resume gone");
      await batch(async (tx) => {
        await w().folders.put(tx, top);
        await w().pages.create(tx, inTitle, "short");
        await w().pages.create(tx, inBody, "the RESUME is long and the naive plan works");
        await w().pages.create(tx, throughFolder, "a resume inside a shared folder");
        await w().pages.create(tx, hidden, "resume resume resume");
        await w().pages.create(tx, gone, "resume");
      });
      await batch(async (tx) => w().pages.remove(tx, gone.id));
      const visibleTo = { ownerIds: [me], pageIds: [], folderIds: [top.id] };
      const word = (text: string, prefix = false) => ({ kind: "word" as const, text, prefix });
      const hits = await reader.pages.search({ terms: [word("resume")], visibleTo, offset: 0, limit: 10 });
      expect(hits.map((hit) => hit.page.id).slice(0, 1)).toEqual([inTitle.id]);
      expect(hits.map((hit) => hit.page.id).sort()).toEqual([inTitle.id, inBody.id, throughFolder.id].sort());
      expect(hits[0]?.inTitle).toBe(true);
      const body = hits.find((hit) => hit.page.id === inBody.id);
      expect(body?.snippet).toContainEqual({ text: "RESUME", marked: true });
      expect(body?.page).toMatchObject({ id: inBody.id, title: "Notes", ownerId: me });

      const phrase = await reader.pages.search({ terms: [{ kind: "phrase", words: ["naïve", "plan"] }], visibleTo, offset: 0, limit: 10 });
      expect(phrase.map((hit) => hit.page.id)).toEqual([inBody.id]);
      expect((await reader.pages.search({ terms: [word("res", true)], visibleTo, offset: 0, limit: 10 })).length).toBe(3);
      expect(await reader.pages.search({ terms: [word("res")], visibleTo, offset: 0, limit: 10 })).toEqual([]);

      const firstTwo = await reader.pages.search({ terms: [word("resume")], visibleTo, offset: 0, limit: 1 });
      expect(firstTwo).toHaveLength(2);
      const rest = await reader.pages.search({ terms: [word("resume")], visibleTo, offset: 2, limit: 1 });
      expect(rest.map((hit) => hit.page.id)).toEqual(hits.slice(2).map((hit) => hit.page.id));

      const moved = at();
      await batch(async (tx) => w().pages.move(tx, throughFolder.id, { parentId: null, ancestorIds: [], folderPath: "" }, { ...moved, revision: 1 }));
      expect((await reader.pages.search({ terms: [word("shared")], visibleTo, offset: 0, limit: 10 }))).toEqual([]);
    });

    it("narrows a search by folder (and below), owner, updated range and title inside the same query", async () => {
      const me = randomUUID();
      const other = randomUUID();
      const top = folder(me);
      const inner = folder(me, top);
      const shared = folder(other);
      const atRoot = page(me, null, "Budget");
      const inTop = page(me, top, "Top");
      const inInner = page(me, inner, "Inner budget");
      const theirs = page(other, shared, "Their budget");
      await batch(async (tx) => {
        for (const item of [top, inner, shared]) await w().folders.put(tx, item);
        for (const item of [atRoot, inTop, inInner, theirs]) await w().pages.create(tx, item, "the budget");
      });
      const visibleTo = { ownerIds: [me], pageIds: [], folderIds: [shared.id] };
      const found = async (filters: SearchFilters) =>
        (await reader.pages.search({ terms: [{ kind: "word", text: "budget", prefix: false }], visibleTo, filters, offset: 0, limit: 10 })).map((hit) => hit.page.id).sort();
      const sorted = (...items: PageRecord[]) => items.map((item) => item.id).sort();
      expect(await found({})).toEqual(sorted(atRoot, inTop, inInner, theirs));
      expect(await found({ folderId: top.id })).toEqual(sorted(inTop, inInner));
      expect(await found({ ownerId: other })).toEqual(sorted(theirs));
      expect(await found({ ownerId: randomUUID() })).toEqual([]);
      expect(await found({ updatedAfter: inTop.updatedAt })).toEqual(sorted(inInner, theirs));
      expect(await found({ updatedBefore: inTop.updatedAt })).toEqual(sorted(atRoot));
      expect(await found({ titleOnly: true })).toEqual(sorted(atRoot, inInner, theirs));
      expect(await found({ folderId: top.id, titleOnly: true, updatedBefore: theirs.updatedAt })).toEqual(sorted(inInner));
    });

    it("empties every read model for a rebuild and answers queries again after it", async () => {
      const owner = randomUUID();
      const record = page(owner, null, "Rebuilt");
      await batch(async (tx) => w().pages.create(tx, record, ""));
      await projection.beginRebuild();
      expect(await reader.checkpoint()).toBe(0);
      expect(await reader.pages.get(record.id)).toBeNull();
      await projection.applyBatch(1, async (tx) => w().pages.create(tx, record, ""));
      await projection.endRebuild();
      expect((await reader.pages.findByTitleKey("rebuilt", everyone(owner), 10)).map((p) => p.id)).toEqual([record.id]);
    });
  
    it("keeps every comment of a thread longer than one MongoDB document could hold, edits and deletions included", async () => {
      const threadId = randomUUID();
      const pageId = randomUUID();
      const ownerId = randomUUID();
      const opened = at();
      await batch(async (tx) => {
        await w().threads.open(tx, { id: threadId, pageId, anchor: { quote: "q", prefix: "", suffix: "" }, status: "open", createdBy: ownerId, createdAt: opened.updatedAt, updatedAt: opened.updatedAt, resolvedBy: null, resolvedAt: null, createdPosition: opened.updatedPosition });
      });
      // 600 comments of 10,000 CJK characters: 18 MB of UTF-8, over MongoDB's 16 MiB document limit.
      const body = "漢".repeat(10_000);
      const ids: string[] = [];
      for (let start = 0; start < 600; start += 100) {
        await batch(async (tx) => {
          for (let n = start; n < start + 100; n += 1) {
            const when = at();
            const id = randomUUID();
            ids.push(id);
            await w().threads.addComment(tx, { id, threadId, authorId: ownerId, body, createdAt: when.updatedAt, updatedAt: when.updatedAt, deletedAt: null, createdPosition: when.updatedPosition });
          }
        });
      }
      const [first, second] = ids;
      if (!first || !second) throw new Error("no comments");
      const edited = at().updatedAt;
      await batch(async (tx) => {
        await w().threads.editComment(tx, first, "short now", edited);
        await w().threads.deleteComment(tx, second, edited);
      });
      const thread = await reader.threads.get(threadId);
      expect(thread?.comments.map((comment) => comment.id)).toEqual(ids);
      expect(thread?.comments[0]).toMatchObject({ body: "short now", updatedAt: edited, deletedAt: null });
      expect(thread?.comments[1]).toMatchObject({ body: "", deletedAt: edited });
      expect(thread?.comments[2]?.body).toBe(body);
      expect(thread?.updatedAt).toBe(edited);
      expect(await reader.threads.locateComment(ids[599] ?? "")).toEqual({ threadId, pageId });
      const [listed] = await reader.threads.list({ pageId, status: "open", limit: 10, before: null });
      expect(listed?.comments).toHaveLength(600);
    });

    it("keeps history entries per entity in position order with their summaries, resolves a thread's page inside the batch, and follows all changes after a position", async () => {
      const pageId = randomUUID();
      const threadId = randomUUID();
      const ownerId = randomUUID();
      const annId = randomUUID();
      const entry = (event: HistoryEntry["event"], entity: Pick<HistoryEntry, "entityKind" | "entityId">, access: HistoryAccess): HistoryEntry => {
        const when = at();
        return { position: when.updatedPosition, occurredAt: when.updatedAt, ...entity, access, actorId: ownerId, correlationId: randomUUID(), event };
      };
      const onPage = { kind: "page" as const, id: pageId };
      const created = entry({ type: "PageCreated", data: { pageId: pageId as PageId, ownerId: ownerId as UserId, parentId: null, title: "T", icon: null, markdown: "first" } }, { entityKind: "page", entityId: pageId }, onPage);
      const opened = entry({ type: "ThreadOpened", data: { threadId: threadId as ThreadId, pageId: pageId as PageId, anchor: { quote: "q", prefix: "", suffix: "" }, createdBy: ownerId as UserId } }, { entityKind: "thread", entityId: threadId }, onPage);
      const renamed = entry({ type: "PageRenamed", data: { pageId: pageId as PageId, title: "U", previousTitle: "T" } }, { entityKind: "page", entityId: pageId }, onPage);
      const granted = entry({ type: "AccessGranted", data: { entityType: "page", entityId: pageId, userId: annId as UserId, permission: "view", grantedBy: ownerId as UserId, invitationId: null } }, { entityKind: "page", entityId: pageId }, onPage);
      const createdSummary: Summary = { change: { kind: "created", title: "T", icon: null, parentId: null, size: 5 }, sharing: false };
      const openedSummary: Summary = { change: { kind: "thread", threadId, action: "opened", commentId: null }, sharing: false };
      const renamedSummary: Summary = { change: { kind: "title", from: "T", to: "U" }, sharing: false };
      const grantedSummary: Summary = { change: { kind: "grant", userId: annId, permission: "view", previousPermission: null, viaInvitation: false }, sharing: true };
      const [c, o, r, g] = [changeOf(created, createdSummary), changeOf(opened, openedSummary), changeOf(renamed, renamedSummary), changeOf(granted, grantedSummary)];
      const fold: StoredFold = { title: "U", icon: null, parentId: null, grants: { [annId]: "view" }, contentAt: created.position, upTo: granted.position };
      await batch(async (tx) => {
        await w().history.record(tx, created, createdSummary);
        await w().history.record(tx, opened, openedSummary);
        expect(await w().history.accessOf(tx, threadId)).toEqual(onPage);
        expect(await w().history.accessOf(tx, randomUUID())).toBeNull();
        expect(await w().history.markdownAt(tx, created.position)).toBe("first");
        expect(await w().history.markdownAt(tx, opened.position)).toBeNull();
        await w().history.record(tx, renamed, renamedSummary);
        await w().history.record(tx, granted, grantedSummary);
        expect(await w().history.foldOf(tx, pageId)).toBeNull();
        await w().history.putFolds(tx, new Map([[pageId, fold]]));
        expect(await w().history.foldOf(tx, pageId)).toEqual(fold);
      });
      const all = { order: "asc" as const, from: null, limit: 10, withSharing: true };
      expect(await reader.history.changesOf(pageId, all)).toEqual([c, r, g]);
      expect(await reader.history.changesOf(pageId, { ...all, withSharing: false })).toEqual([c, r]);
      expect(await reader.history.changesOf(pageId, { ...all, order: "desc", limit: 2 })).toEqual([g, r]);
      expect(await reader.history.changesOf(pageId, { ...all, order: "desc", from: renamed.position, limit: 1 })).toEqual([c]);
      expect(await reader.history.changesOf(pageId, { ...all, from: created.position, withSharing: false })).toEqual([r]);
      expect(await reader.history.firstEntryOf(pageId)).toEqual(created);
      expect(await reader.history.firstEntryOf(randomUUID())).toBeNull();
      expect(await reader.history.pageStateAt(pageId, { kind: "position", position: renamed.position })).toEqual({ entries: [created, renamed], count: 2 });
      expect(await reader.history.pageStateAt(pageId, { kind: "position", position: created.position - 1 })).toEqual({ entries: [], count: 0 });
      expect(await reader.history.pageStateAt(pageId, { kind: "time", ms: Date.parse(created.occurredAt) })).toEqual({ entries: [created], count: 1 });
      expect(await reader.history.changesAfter(created.position, 1)).toEqual([o]);
      expect(await reader.history.changesAfter(created.position - 1, 10)).toEqual([c, o, r, g]);
      await expect(batch(async (tx) => {
        await w().history.record(tx, { ...renamed, position: at().updatedPosition }, renamedSummary);
        await w().history.putFolds(tx, new Map([[pageId, { ...fold, title: "lost" }]]));
        throw new Error("projection failed");
      })).rejects.toThrow("projection failed");
      expect(await reader.history.changesOf(pageId, all)).toHaveLength(3);
      await batch(async (tx) => expect(await w().history.foldOf(tx, pageId)).toEqual(fold));
    });

    it("counts a page's events across batches for its state at an instant, leaving grants and other pages out", async () => {
      const pageId = randomUUID();
      const otherId = randomUUID();
      const ownerId = randomUUID();
      const entry = (event: HistoryEntry["event"], entityId = pageId): HistoryEntry => {
        const when = at();
        return { position: when.updatedPosition, occurredAt: when.updatedAt, entityKind: "page", entityId, access: { kind: "page", id: entityId }, actorId: ownerId, correlationId: randomUUID(), event };
      };
      const created = entry({ type: "PageCreated", data: { pageId: pageId as PageId, ownerId: ownerId as UserId, parentId: null, title: "T", icon: null, markdown: "first" } });
      const other = entry({ type: "PageCreated", data: { pageId: otherId as PageId, ownerId: ownerId as UserId, parentId: null, title: "O", icon: null, markdown: "" } }, otherId);
      const renamed = entry({ type: "PageRenamed", data: { pageId: pageId as PageId, title: "U", previousTitle: "T" } });
      const granted = entry({ type: "AccessGranted", data: { entityType: "page", entityId: pageId, userId: randomUUID() as UserId, permission: "view", grantedBy: ownerId as UserId, invitationId: null } });
      const replaced = entry({ type: "PageContentReplaced", data: { pageId: pageId as PageId, markdown: "second" } });
      const summary: Summary = { change: { kind: "title", from: "T", to: "U" }, sharing: false };
      await batch(async (tx) => {
        await w().history.record(tx, created, summary);
        await w().history.record(tx, other, summary);
      });
      await batch(async (tx) => {
        await w().history.record(tx, renamed, summary);
        await w().history.record(tx, granted, { ...summary, sharing: true });
      });
      await expect(batch(async (tx) => {
        await w().history.record(tx, { ...replaced, position: at().updatedPosition }, summary);
        throw new Error("projection failed");
      })).rejects.toThrow("projection failed");
      await batch(async (tx) => w().history.record(tx, replaced, summary));
      expect(await reader.history.pageStateAt(pageId, { kind: "position", position: granted.position })).toEqual({ entries: [created, renamed], count: 2 });
      expect(await reader.history.pageStateAt(pageId, { kind: "position", position: replaced.position })).toEqual({ entries: [created, renamed, replaced], count: 3 });
      expect(await reader.history.pageStateAt(otherId, { kind: "time", ms: Date.parse(replaced.occurredAt) })).toEqual({ entries: [other], count: 1 });
    });

    it("keeps each page's links: a kept link keeps its position, a dropped one goes, a deleted source takes its links", async () => {
      const [source, other, target, second] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await projection.applyBatch(100, async (tx) => w().links.setLinks(tx, source, [target, second], 100));
      await projection.applyBatch(101, async (tx) => w().links.setLinks(tx, other, [target], 101));
      await projection.applyBatch(102, async (tx) => w().links.setLinks(tx, source, [target], 102));
      expect(await reader.links.linksTo(target, null, 10)).toEqual([
        { sourceId: other, targetId: target, position: 101 },
        { sourceId: source, targetId: target, position: 100 },
      ]);
      expect(await reader.links.linksTo(target, 101, 10)).toEqual([{ sourceId: source, targetId: target, position: 100 }]);
      expect(await reader.links.linksTo(target, null, 1)).toHaveLength(1);
      expect(await reader.links.linksTo(second, null, 10)).toEqual([]);
      await projection.applyBatch(103, async (tx) => w().links.removeSource(tx, other));
      expect((await reader.links.linksTo(target, null, 10)).map((link) => link.sourceId)).toEqual([source]);
      await projection.applyBatch(104, async (tx) => w().links.setLinks(tx, source, [], 104));
      expect(await reader.links.linksTo(target, null, 10)).toEqual([]);
    });

    it("lists the trash through owners, folders above an item and granted items, newest first, each source limited, and follows folder moves", async () => {
      const [owner, other, top, inner, moved] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const item = (type: "page" | "folder", ownerId: string, ancestorIds: string[], deletedWith: string | null = null) => {
        const when = at();
        return { type, id: randomUUID(), ownerId, title: "t", parentId: ancestorIds[0] ?? null, ancestorIds, deletedAt: when.updatedAt, deletedBy: ownerId, deletedWith, position: when.updatedPosition };
      };
      const own = item("page", owner, []);
      const deep = item("page", other, [inner, top]);
      const granted = item("folder", other, []);
      const along = item("page", other, [inner, top], granted.id);
      const unrelated = item("page", other, [moved]);
      await batch(async (tx) => {
        for (const entry of [own, deep, granted, along, unrelated]) await w().trash.put(tx, entry);
      });
      const sources = { ownerIds: [owner], folderIds: [top], pageIds: [] };
      const ids = (items: { id: string }[]) => items.map((entry) => entry.id);
      expect(ids(await reader.trash.list({ ...sources, pageIds: [granted.id] }, null, 10))).toEqual([deep.id, own.id]);
      expect(ids(await reader.trash.list({ ...sources, folderIds: [top, granted.id] }, null, 10))).toEqual([granted.id, deep.id, own.id]);
      expect(ids(await reader.trash.list({ ...sources, folderIds: [top, granted.id] }, null, 1))).toEqual([granted.id]);
      expect(ids(await reader.trash.list({ ...sources, folderIds: [top, granted.id] }, granted.position, 1))).toEqual([deep.id]);
      expect(await reader.trash.list({ ownerIds: [], folderIds: [], pageIds: [] }, null, 10)).toEqual([]);
      expect((await reader.trash.get("page", deep.id))?.ancestorIds).toEqual([inner, top]);
      // `moved` now stands below `top`; `inner` left it for the root.
      await batch(async (tx) => {
        await w().trash.placeBelow(tx, { id: moved, ancestorIds: [top] });
        await w().trash.placeBelow(tx, { id: inner, ancestorIds: [] });
      });
      expect(ids(await reader.trash.list({ ownerIds: [], folderIds: [top], pageIds: [] }, null, 10))).toEqual([unrelated.id]);
      expect((await reader.trash.get("page", unrelated.id))?.ancestorIds).toEqual([moved, top]);
      expect((await reader.trash.get("page", deep.id))?.ancestorIds).toEqual([inner]);
    });

    it("forgets a purged page everywhere: its row, threads and comments, history and folds, grants, images, links both ways", async () => {
      const ownerId = randomUUID();
      const userId = randomUUID();
      const record = page(ownerId, null, "Purged");
      const [linking, linked, threadId, commentId, imageId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const onPage = { kind: "page" as const, id: record.id };
      const created: HistoryEntry = {
        position: record.updatedPosition, occurredAt: record.updatedAt, entityKind: "page", entityId: record.id, access: onPage, actorId: ownerId, correlationId: randomUUID(),
        event: { type: "PageCreated", data: { pageId: record.id as PageId, ownerId: ownerId as UserId, parentId: null, title: "Purged", icon: null, markdown: "x" } },
      };
      const when = at();
      const opened: HistoryEntry = {
        position: when.updatedPosition, occurredAt: when.updatedAt, entityKind: "thread", entityId: threadId, access: onPage, actorId: ownerId, correlationId: randomUUID(),
        event: { type: "ThreadOpened", data: { threadId: threadId as ThreadId, pageId: record.id as PageId, anchor: { quote: "q", prefix: "", suffix: "" }, createdBy: ownerId as UserId } },
      };
      const fold: StoredFold = { title: "Purged", icon: null, parentId: null, grants: {}, contentAt: created.position, upTo: created.position };
      await batch(async (tx) => {
        await w().pages.create(tx, record, "x");
        await w().history.record(tx, created, { change: { kind: "created", title: "Purged", icon: null, parentId: null, size: 1 }, sharing: false });
        await w().threads.open(tx, { id: threadId, pageId: record.id, anchor: { quote: "q", prefix: "", suffix: "" }, status: "open", createdBy: ownerId, createdAt: when.updatedAt, updatedAt: when.updatedAt, resolvedBy: null, resolvedAt: null, createdPosition: when.updatedPosition });
        await w().threads.addComment(tx, { id: commentId, threadId, authorId: ownerId, body: "b", createdAt: when.updatedAt, updatedAt: when.updatedAt, deletedAt: null, createdPosition: when.updatedPosition });
        await w().history.record(tx, opened, { change: { kind: "thread", threadId, action: "opened", commentId: null }, sharing: false });
        await w().history.putFolds(tx, new Map([[record.id, fold]]));
        await w().access.putGrant(tx, { entityType: "page", entityId: record.id, userId, permission: "edit", grantedBy: ownerId, createdAt: when.updatedAt, updatedAt: when.updatedAt }, when.updatedPosition);
        const image = { id: imageId, pageId: record.id, uploaderId: ownerId, filename: "f.png", originalName: "f.png", mimeType: "image/png" as const, size: 1, width: 1, height: 1, alt: "", sha256: "a".repeat(64), createdAt: when.updatedAt };
        await w().images.put(tx, image);
        await w().links.setLinks(tx, record.id, [linked], when.updatedPosition);
        await w().links.setLinks(tx, linking, [record.id], when.updatedPosition);
      });
      expect([...(await reader.access.contextFor(userId)).pageGrants]).toEqual([[record.id, "edit"]]);
      const purgedAt = at().updatedPosition;
      await batch(async (tx) => {
        await w().pages.remove(tx, record.id);
        expect(await w().threads.threadIdsOf(tx, record.id)).toEqual([threadId]);
        await w().threads.removePage(tx, record.id);
        await w().history.forget(tx, [record.id, threadId]);
        expect(await w().history.foldOf(tx, record.id)).toBeNull();
        await w().pages.purge(tx, record.id);
        await w().links.removeSource(tx, record.id);
        await w().links.removeTarget(tx, record.id);
        await w().access.removeEntity(tx, "page", record.id, purgedAt);
        await w().images.removePage(tx, record.id);
      });
      expect(await reader.pages.get(record.id)).toBeNull();
      expect(await reader.threads.get(threadId)).toBeNull();
      expect(await reader.threads.locateComment(commentId)).toBeNull();
      expect(await reader.history.firstEntryOf(record.id)).toBeNull();
      expect(await reader.history.changesOf(threadId, { order: "asc", from: null, limit: 10, withSharing: true })).toEqual([]);
      expect((await reader.history.changesAfter(created.position - 1, 100)).filter((change) => [record.id, threadId].includes(change.entityId))).toEqual([]);
      expect(await reader.access.grantsOn("page", record.id)).toEqual([]);
      expect((await reader.access.contextFor(userId)).pageGrants.size).toBe(0);
      expect(await reader.images.get(imageId)).toBeNull();
      expect(await reader.links.linksTo(record.id, null, 10)).toEqual([]);
      expect(await reader.links.linksTo(linked, null, 10)).toEqual([]);
    });
  });
}
