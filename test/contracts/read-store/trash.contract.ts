// Part of the read-store contract (read-store.contract.ts). Links, the trash and the purge: what follows a page as
// it changes, goes and is forgotten.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { HistoryEntry, StoredFold } from "../../../shared/history/history.view.ts";
import type { PageId, ThreadId, UserId } from "../../../shared/kernel/ids.ts";
import { at, everyone, folder, page, type ContractStores } from "./stores.ts";

export function trashCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  it("keeps each page's links: a kept link keeps its position, a dropped one goes, a deleted source takes its links", async () => {
    const [source, other, target, second, owner] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const of = (id: string) => ({ id, ownerId: owner });
    const seen = everyone(owner);
    await s.projection.applyBatch(100, async (tx) => w().links.setLinks(tx, of(source), [target, second], 100));
    await s.projection.applyBatch(101, async (tx) => w().links.setLinks(tx, of(other), [target], 101));
    await s.projection.applyBatch(102, async (tx) => w().links.setLinks(tx, of(source), [target], 102));
    expect(await s.reader.links.linksTo(target, seen, null, 10)).toEqual([
      { sourceId: other, targetId: target, position: 101 },
      { sourceId: source, targetId: target, position: 100 },
    ]);
    expect(await s.reader.links.linksTo(target, seen, 101, 10)).toEqual([
      { sourceId: source, targetId: target, position: 100 },
    ]);
    expect(await s.reader.links.linksTo(target, seen, null, 1)).toHaveLength(1);
    expect(await s.reader.links.linksTo(second, seen, null, 10)).toEqual([]);
    await s.projection.applyBatch(103, async (tx) => w().links.removeSource(tx, other));
    expect((await s.reader.links.linksTo(target, seen, null, 10)).map((link) => link.sourceId)).toEqual([source]);
    await s.projection.applyBatch(104, async (tx) => w().links.setLinks(tx, of(source), [], 104));
    expect(await s.reader.links.linksTo(target, seen, null, 10)).toEqual([]);
  });

  it("reads links only from pages the caller can see: their workspaces, pages below granted folders, granted pages", async () => {
    const [ann, bob, target] = [randomUUID(), randomUUID(), randomUUID()];
    const shared = folder(bob);
    const [own, below, granted, hidden] = [page(ann), page(bob, shared), page(bob), page(bob)];
    await batch(async (tx) => {
      await w().folders.put(tx, shared);
      for (const made of [own, below, granted, hidden]) await w().pages.put(tx, made, `links to ${target}`);
    });
    // The owner comes from the pages model unless the page is created by the same event.
    await batch(async (tx) => {
      for (const made of [own, below, granted, hidden])
        await w().links.setLinks(
          tx,
          { id: made.id, ownerId: made === own ? ann : null },
          [target],
          made.updatedPosition,
        );
    });
    const sources = async (visibleTo: { ownerIds: string[]; folderIds: string[]; pageIds: string[] }) =>
      new Set((await s.reader.links.linksTo(target, visibleTo, null, 10)).map((link) => link.sourceId));
    expect(await sources({ ownerIds: [ann], folderIds: [shared.id], pageIds: [granted.id] })).toEqual(
      new Set([own.id, below.id, granted.id]),
    );
    expect(await sources({ ownerIds: [ann], folderIds: [], pageIds: [] })).toEqual(new Set([own.id]));
    expect(await sources({ ownerIds: [bob], folderIds: [], pageIds: [] })).toEqual(
      new Set([below.id, granted.id, hidden.id]),
    );
    expect(await sources({ ownerIds: [], folderIds: [], pageIds: [] })).toEqual(new Set());
  });

  it("sums the image bytes of one page, for the purge that takes them off its owner's total", async () => {
    const [pageId, other] = [randomUUID(), randomUUID()];
    const image = (onPage: string, size: number) => ({
      id: randomUUID(),
      pageId: onPage,
      uploaderId: randomUUID(),
      filename: "f.png",
      originalName: "f.png",
      mimeType: "image/png" as const,
      size,
      width: 1,
      height: 1,
      alt: "",
      sha256: "a".repeat(64),
      createdAt: at().updatedAt,
    });
    await batch(async (tx) => {
      expect(await w().images.bytesOfPage(tx, pageId)).toBe(0);
      for (const [onPage, size] of [
        [pageId, 100],
        [pageId, 20],
        [other, 50000],
      ] as const)
        await w().images.put(tx, image(onPage, size));
      // The batch sees its own writes.
      expect(await w().images.bytesOfPage(tx, pageId)).toBe(120);
    });
    await batch(async (tx) => {
      await w().images.removePage(tx, pageId);
      expect(await w().images.bytesOfPage(tx, pageId)).toBe(0);
      expect(await w().images.bytesOfPage(tx, other)).toBe(50000);
    });
  });

  it("names a page's owner until it is purged, in the trash too", async () => {
    const ann = randomUUID();
    const made = page(ann);
    await batch(async (tx) => {
      expect(await w().pages.ownerOf(tx, made.id)).toBeNull();
      await w().pages.put(tx, made, "x");
      expect(await w().pages.ownerOf(tx, made.id)).toBe(ann);
    });
    await batch(async (tx) => w().pages.remove(tx, made.id));
    await batch(async (tx) => {
      expect(await w().pages.ownerOf(tx, made.id)).toBe(ann);
      await w().pages.purge(tx, made.id);
      expect(await w().pages.ownerOf(tx, made.id)).toBeNull();
    });
  });

  it("lists every image of a page in id order, paged, for the purge that removes their bytes", async () => {
    const [pageId, otherPage] = [randomUUID(), randomUUID()];
    const image = (onPage: string) => ({
      id: randomUUID(),
      pageId: onPage,
      uploaderId: randomUUID(),
      filename: "f.png",
      originalName: "f.png",
      mimeType: "image/png" as const,
      size: 1,
      width: 1,
      height: 1,
      alt: "",
      sha256: "a".repeat(64),
      createdAt: at().updatedAt,
    });
    const mine = [image(pageId), image(pageId), image(pageId)];
    await batch(async (tx) => {
      for (const made of [...mine, image(otherPage)]) await w().images.put(tx, made);
    });
    const first = await s.reader.images.allOfPage(pageId, null, 2);
    const rest = await s.reader.images.allOfPage(pageId, first.at(-1)?.id ?? null, 10);
    expect([...first, ...rest]).toEqual([...mine].sort((a, b) => (a.id < b.id ? -1 : 1)));
    await batch(async (tx) => w().images.removePage(tx, pageId));
    expect(await s.reader.images.allOfPage(pageId, null, 10)).toEqual([]);
  });

  it("lists the trash through owners, folders above an item and granted items, newest first, each source limited, and follows folder moves", async () => {
    const [owner, other, top, inner, moved] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const item = (
      type: "page" | "folder",
      ownerId: string,
      ancestorIds: string[],
      deletedWith: string | null = null,
    ) => {
      const when = at();
      return {
        type,
        id: randomUUID(),
        ownerId,
        title: "t",
        parentId: ancestorIds[0] ?? null,
        ancestorIds,
        deletedAt: when.updatedAt,
        deletedBy: ownerId,
        deletedWith,
        position: when.updatedPosition,
      };
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
    expect(ids(await s.reader.trash.list({ ...sources, pageIds: [granted.id] }, null, 10))).toEqual([deep.id, own.id]);
    expect(ids(await s.reader.trash.list({ ...sources, folderIds: [top, granted.id] }, null, 10))).toEqual([
      granted.id,
      deep.id,
      own.id,
    ]);
    expect(ids(await s.reader.trash.list({ ...sources, folderIds: [top, granted.id] }, null, 1))).toEqual([granted.id]);
    expect(ids(await s.reader.trash.list({ ...sources, folderIds: [top, granted.id] }, granted.position, 1))).toEqual([
      deep.id,
    ]);
    expect(await s.reader.trash.list({ ownerIds: [], folderIds: [], pageIds: [] }, null, 10)).toEqual([]);
    expect((await s.reader.trash.get("page", deep.id))?.ancestorIds).toEqual([inner, top]);
    // `moved` now stands below `top`; `inner` left it for the root.
    await batch(async (tx) => {
      await w().trash.placeBelow(tx, { id: moved, ancestorIds: [top] });
      await w().trash.placeBelow(tx, { id: inner, ancestorIds: [] });
    });
    expect(ids(await s.reader.trash.list({ ownerIds: [], folderIds: [top], pageIds: [] }, null, 10))).toEqual([
      unrelated.id,
    ]);
    expect((await s.reader.trash.get("page", unrelated.id))?.ancestorIds).toEqual([moved, top]);
    expect((await s.reader.trash.get("page", deep.id))?.ancestorIds).toEqual([inner]);
  });

  it("forgets a purged page everywhere: its row, threads and comments, history and folds, grants, images, links both ways", async () => {
    const ownerId = randomUUID();
    const userId = randomUUID();
    const record = page(ownerId, null, "Purged");
    const [linking, linked, threadId, commentId, imageId] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const onPage = { kind: "page" as const, id: record.id };
    const created: HistoryEntry = {
      position: record.updatedPosition,
      occurredAt: record.updatedAt,
      entityKind: "page",
      entityId: record.id,
      access: onPage,
      actorId: ownerId,
      correlationId: randomUUID(),
      event: {
        type: "PageCreated",
        data: {
          pageId: record.id as PageId,
          ownerId: ownerId as UserId,
          parentId: null,
          title: "Purged",
          icon: null,
          markdown: "x",
        },
      },
    };
    const when = at();
    const opened: HistoryEntry = {
      position: when.updatedPosition,
      occurredAt: when.updatedAt,
      entityKind: "thread",
      entityId: threadId,
      access: onPage,
      actorId: ownerId,
      correlationId: randomUUID(),
      event: {
        type: "ThreadOpened",
        data: {
          threadId: threadId as ThreadId,
          pageId: record.id as PageId,
          anchor: { quote: "q", prefix: "", suffix: "" },
          createdBy: ownerId as UserId,
        },
      },
    };
    const fold: StoredFold = {
      title: "Purged",
      icon: null,
      parentId: null,
      grants: {},
      contentAt: created.position,
      upTo: created.position,
    };
    await batch(async (tx) => {
      await w().pages.put(tx, record, "x");
      await w().history.record(tx, created, {
        change: { kind: "created", title: "Purged", icon: null, parentId: null, size: 1 },
        sharing: false,
      });
      await w().threads.put(tx, {
        id: threadId,
        pageId: record.id,
        anchor: { quote: "q", prefix: "", suffix: "" },
        status: "open",
        createdBy: ownerId,
        createdAt: when.updatedAt,
        updatedAt: when.updatedAt,
        resolvedBy: null,
        resolvedAt: null,
        createdPosition: when.updatedPosition,
        comments: [
          {
            id: commentId,
            threadId,
            authorId: ownerId,
            body: "b",
            createdAt: when.updatedAt,
            updatedAt: when.updatedAt,
            deletedAt: null,
            createdPosition: when.updatedPosition,
          },
        ],
      });
      await w().history.record(tx, opened, {
        change: { kind: "thread", threadId, action: "opened", commentId: null },
        sharing: false,
      });
      await w().history.putFolds(tx, new Map([[record.id, fold]]));
      await w().access.putGrant(
        tx,
        {
          entityType: "page",
          entityId: record.id,
          userId,
          permission: "edit",
          grantedBy: ownerId,
          createdAt: when.updatedAt,
          updatedAt: when.updatedAt,
        },
        when.updatedPosition,
      );
      const image = {
        id: imageId,
        pageId: record.id,
        uploaderId: ownerId,
        filename: "f.png",
        originalName: "f.png",
        mimeType: "image/png" as const,
        size: 1,
        width: 1,
        height: 1,
        alt: "",
        sha256: "a".repeat(64),
        createdAt: when.updatedAt,
      };
      await w().images.put(tx, image);
      await w().links.setLinks(tx, { id: record.id, ownerId }, [linked], when.updatedPosition);
      await w().links.setLinks(tx, { id: linking, ownerId }, [record.id], when.updatedPosition);
    });
    expect([...(await s.reader.access.contextFor(userId)).pageGrants]).toEqual([[record.id, "edit"]]);
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
    expect(await s.reader.pages.get(record.id)).toBeNull();
    expect(await s.reader.threads.get(threadId)).toBeNull();
    expect(await s.reader.threads.locateComment(commentId)).toBeNull();
    expect(await s.reader.history.firstEntryOf(record.id)).toBeNull();
    expect(
      await s.reader.history.changesOf(threadId, { order: "asc", from: null, limit: 10, withSharing: true }),
    ).toEqual([]);
    expect(
      (await s.reader.history.changesAfter(created.position - 1, 100)).filter((change) =>
        [record.id, threadId].includes(change.entityId),
      ),
    ).toEqual([]);
    expect(await s.reader.access.grantsOn("page", record.id)).toEqual([]);
    expect((await s.reader.access.contextFor(userId)).pageGrants.size).toBe(0);
    expect(await s.reader.images.get(imageId)).toBeNull();
    expect(await s.reader.links.linksTo(record.id, everyone(ownerId), null, 10)).toEqual([]);
    expect(await s.reader.links.linksTo(linked, everyone(ownerId), null, 10)).toEqual([]);
  });
}
