// The ReadStore contract: every adapter (SQLite, MongoDB, ...) must pass these. A writer store applies batches
// (as the projector does); a second store on the same storage reads (as the APIs do).
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FolderRecord } from "../../shared/folders/folders.view.ts";
import type { PageRecord } from "../../shared/pages/pages.view.ts";
import type { ReadStore } from "../../shared/read-store/read-store.port.ts";

export type ReadStoreFactory = () => Promise<{ writer: ReadStore; reader: ReadStore; cleanup: () => Promise<void> }>;

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

export function readStoreContract(name: string, factory: ReadStoreFactory): void {
  describe(`ReadStore contract: ${name}`, () => {
    let writer: ReadStore;
    let reader: ReadStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ writer, reader, cleanup } = await factory());
    });
    afterEach(async () => {
      await cleanup();
    });
    const batch = (work: () => Promise<void>) => writer.applyBatch(position + 1, work);

    it("moves the checkpoint with each batch and keeps neither effects nor checkpoint of a failed one", async () => {
      const user = { id: randomUUID(), email: `${randomUUID()}@example.com`, name: "A", image: null, createdAt: at().updatedAt };
      await writer.applyBatch(10, async () => writer.users.put(user));
      expect(await reader.checkpoint()).toBe(10);
      const lost = { ...user, id: randomUUID(), email: `${randomUUID()}@example.com` };
      await expect(writer.applyBatch(11, async () => {
        await writer.users.put(lost);
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
      await batch(async () => {
        await writer.folders.put(top);
        await writer.folders.put(inner);
        for (let i = 0; i < 6; i += 1) {
          const mine = page(me);
          const shared = page(other, inner);
          await writer.pages.create(mine, "");
          await writer.pages.create(shared, "");
          await writer.pages.create(page(other), "");
          expected.push(mine.id, shared.id);
        }
      });
      const granted = page(other);
      await batch(async () => writer.pages.create(granted, "body"));
      expected.push(granted.id);
      const visibleTo = { ownerIds: [me], pageIds: [granted.id], folderIds: [top.id] };
      const seen: string[] = [];
      let before: number | null = null;
      for (;;) {
        const rows = await reader.pages.list({ visibleTo, before, limit: 4, parentId: null });
        const kept = rows.slice(0, 4);
        seen.push(...kept.map((row) => row.id));
        const last = kept[kept.length - 1];
        if (rows.length <= 4 || !last) break;
        before = last.updatedPosition;
      }
      expect(seen).toEqual([...expected].reverse());
      const inFolder = await reader.pages.list({ visibleTo, before: null, limit: 50, parentId: inner.id });
      expect(inFolder).toHaveLength(6);
    });

    it("keeps the last value of every field when one batch changes a page many times", async () => {
      const record = page(randomUUID(), null, "First");
      await batch(async () => {
        await writer.pages.create(record, "v1");
        await writer.pages.change(record.id, { kind: "title", title: "Second", ...at(), revision: 1 });
        await writer.pages.change(record.id, { kind: "icon", icon: "⭐", ...at(), revision: 2 });
        expect((await writer.pages.get(record.id))?.title).toBe("Second");
        await writer.pages.change(record.id, { kind: "content", markdown: "v2", ...at(), revision: 3 });
        await writer.pages.change(record.id, { kind: "title", title: "Third", ...at(), revision: 4 });
      });
      const content = await reader.pages.getContent(record.id);
      expect(content?.page).toMatchObject({ title: "Third", icon: "⭐", revision: 4, updatedPosition: position });
      expect(content?.markdown).toBe("v2");
      expect((await reader.pages.findByTitleKey("third", 10)).map((p) => p.id)).toEqual([record.id]);
      expect(await reader.pages.findByTitleKey("second", 10)).toEqual([]);
    });

    it("hides a removed page from get, content, lists and title lookups", async () => {
      const owner = randomUUID();
      const record = page(owner, null, "Gone");
      await batch(async () => writer.pages.create(record, "x"));
      await batch(async () => writer.pages.remove(record.id));
      expect(await reader.pages.get(record.id)).toBeNull();
      expect(await reader.pages.getContent(record.id)).toBeNull();
      expect(await reader.pages.findByTitleKey("gone", 10)).toEqual([]);
      expect(await reader.pages.list({ visibleTo: { ownerIds: [owner], pageIds: [], folderIds: [] }, before: null, limit: 10, parentId: null })).toEqual([]);
    });

    it("answers an access context from grants and memberships, and forgets revoked ones", async () => {
      const user = randomUUID();
      const owner = randomUUID();
      const when = at().updatedAt;
      await batch(async () => {
        await writer.access.putGrant({ entityType: "folder", entityId: "f1", userId: user, permission: "edit", grantedBy: owner, createdAt: when, updatedAt: when });
        await writer.access.putGrant({ entityType: "page", entityId: "p1", userId: user, permission: "view", grantedBy: owner, createdAt: when, updatedAt: when });
        await writer.access.putMember({ id: randomUUID(), ownerId: owner, memberId: user, role: "commenter", createdAt: when });
      });
      const context = await reader.access.contextFor(user);
      expect([...context.folderGrants]).toEqual([["f1", "edit"]]);
      expect([...context.pageGrants]).toEqual([["p1", "view"]]);
      expect([...context.workspaceRoles]).toEqual([[owner, "commenter"]]);
      await batch(async () => {
        await writer.access.removeGrant("folder", "f1", user);
        await writer.access.removeMember(owner, user);
      });
      const after = await reader.access.contextFor(user);
      expect(after.folderGrants.size + after.workspaceRoles.size).toBe(0);
    });

    it("empties every read model for a rebuild and answers queries again after it", async () => {
      const owner = randomUUID();
      const record = page(owner, null, "Rebuilt");
      await batch(async () => writer.pages.create(record, ""));
      await writer.beginRebuild();
      expect(await reader.checkpoint()).toBe(0);
      expect(await reader.pages.get(record.id)).toBeNull();
      await writer.applyBatch(1, async () => writer.pages.create(record, ""));
      await writer.endRebuild();
      expect((await reader.pages.findByTitleKey("rebuilt", 10)).map((p) => p.id)).toEqual([record.id]);
    });
  });
}
