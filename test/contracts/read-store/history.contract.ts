// Part of the read-store contract (read-store.contract.ts). Threads and history: comments kept whole, entries in
// order with their summaries, a page as of an instant.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { changeOf } from "../../../shared/history/describe-history.ts";
import type { CommentRecord } from "../../../shared/threads/threads.view.ts";
import type { Summary } from "../../../shared/history/change-summary.ts";
import type { HistoryAccess, HistoryEntry, StoredFold } from "../../../shared/history/history.view.ts";
import type { GroupId, PageId, ThreadId, UserId } from "../../../shared/kernel/ids.ts";
import { at, type ContractStores } from "./stores.ts";

export function historyCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  it("keeps every comment of a thread longer than one MongoDB document could hold, edits and deletions included", async () => {
    const threadId = randomUUID();
    const pageId = randomUUID();
    const ownerId = randomUUID();
    const opened = at();
    const opening = {
      id: threadId,
      pageId,
      anchor: { quote: "q", prefix: "", suffix: "" },
      status: "open" as const,
      createdBy: ownerId,
      createdAt: opened.updatedAt,
      updatedAt: opened.updatedAt,
      resolvedBy: null,
      resolvedAt: null,
      createdPosition: opened.updatedPosition,
      comments: [] as CommentRecord[],
    };
    await batch(async (tx) => {
      await w().threads.put(tx, opening);
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
          const comment = {
            id,
            threadId,
            authorId: ownerId,
            body,
            createdAt: when.updatedAt,
            updatedAt: when.updatedAt,
            deletedAt: null,
            createdPosition: when.updatedPosition,
          };
          await w().threads.put(tx, { ...opening, updatedAt: when.updatedAt, comments: [comment] });
        }
      });
    }
    const [first, second] = ids;
    if (!first || !second) throw new Error("no comments");
    const edited = at().updatedAt;
    await batch(async (tx) => {
      for (const [id, change] of [
        [first, { body: "short now", updatedAt: edited }],
        [second, { body: "", updatedAt: edited, deletedAt: edited }],
      ] as const) {
        const stored = await w().threads.get(tx, threadId, id);
        const [comment] = stored?.comments ?? [];
        if (!stored || !comment) throw new Error("the comment was not stored");
        await w().threads.put(tx, { ...stored, updatedAt: edited, comments: [{ ...comment, ...change }] });
      }
    });
    const thread = await s.reader.threads.get(threadId);
    expect(thread?.comments.map((comment) => comment.id)).toEqual(ids);
    expect(thread?.comments[0]).toMatchObject({ body: "short now", updatedAt: edited, deletedAt: null });
    expect(thread?.comments[1]).toMatchObject({ body: "", deletedAt: edited });
    expect(thread?.comments[2]?.body).toBe(body);
    expect(thread?.updatedAt).toBe(edited);
    expect(await s.reader.threads.locateComment(ids[599] ?? "")).toEqual({ threadId, pageId });
    const [listed] = await s.reader.threads.list({ pageId, status: "open", limit: 10, before: null });
    expect(listed?.comments).toHaveLength(600);
  });

  it("keeps history entries per entity in position order with their summaries, resolves a thread's page inside the batch, and follows all changes after a position", async () => {
    const pageId = randomUUID();
    const threadId = randomUUID();
    const ownerId = randomUUID();
    const annId = randomUUID();
    const entry = (
      event: HistoryEntry["event"],
      entity: Pick<HistoryEntry, "entityKind" | "entityId">,
      access: HistoryAccess,
    ): HistoryEntry => {
      const when = at();
      return {
        position: when.updatedPosition,
        occurredAt: when.updatedAt,
        ...entity,
        access,
        actorId: ownerId,
        correlationId: randomUUID(),
        event,
      };
    };
    const onPage = { kind: "page" as const, id: pageId };
    const created = entry(
      {
        type: "PageCreated",
        data: {
          pageId: pageId as PageId,
          ownerId: ownerId as UserId,
          parentId: null,
          title: "T",
          icon: null,
          markdown: "first",
        },
      },
      { entityKind: "page", entityId: pageId },
      onPage,
    );
    const opened = entry(
      {
        type: "ThreadOpened",
        data: {
          threadId: threadId as ThreadId,
          pageId: pageId as PageId,
          anchor: { quote: "q", prefix: "", suffix: "" },
          createdBy: ownerId as UserId,
        },
      },
      { entityKind: "thread", entityId: threadId },
      onPage,
    );
    // Made through an API token: the entry names it.
    const renamed = {
      ...entry(
        { type: "PageRenamed", data: { pageId: pageId as PageId, title: "U", previousTitle: "T" } },
        { entityKind: "page", entityId: pageId },
        onPage,
      ),
      tokenId: randomUUID(),
    };
    const granted = entry(
      {
        type: "AccessGranted",
        data: {
          entityType: "page",
          entityId: pageId,
          userId: annId as UserId,
          permission: "view",
          grantedBy: ownerId as UserId,
          invitationId: null,
        },
      },
      { entityKind: "page", entityId: pageId },
      onPage,
    );
    const createdSummary: Summary = {
      change: { kind: "created", title: "T", icon: null, parentId: null, size: 5 },
      sharing: false,
    };
    const openedSummary: Summary = {
      change: { kind: "thread", threadId, action: "opened", commentId: null },
      sharing: false,
    };
    const renamedSummary: Summary = { change: { kind: "title", from: "T", to: "U" }, sharing: false };
    const grantedSummary: Summary = {
      change: { kind: "grant", userId: annId, permission: "view", previousPermission: null, viaInvitation: false },
      sharing: true,
    };
    const [c, o, r, g] = [
      changeOf(created, createdSummary),
      changeOf(opened, openedSummary),
      changeOf(renamed, renamedSummary),
      changeOf(granted, grantedSummary),
    ];
    const fold: StoredFold = {
      title: "U",
      icon: null,
      parentId: null,
      grants: { [annId]: "view" },
      contentAt: created.position,
      upTo: granted.position,
    };
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
    expect(await s.reader.history.changesOf(pageId, all)).toEqual([c, r, g]);
    expect(await s.reader.history.changesOf(pageId, { ...all, withSharing: false })).toEqual([c, r]);
    expect(await s.reader.history.changesOf(pageId, { ...all, order: "desc", limit: 2 })).toEqual([g, r]);
    expect(
      await s.reader.history.changesOf(pageId, { ...all, order: "desc", from: renamed.position, limit: 1 }),
    ).toEqual([c]);
    expect(await s.reader.history.changesOf(pageId, { ...all, from: created.position, withSharing: false })).toEqual([
      r,
    ]);
    expect(await s.reader.history.firstEntryOf(pageId)).toEqual(created);
    expect(await s.reader.history.firstEntryOf(randomUUID())).toBeNull();
    expect(await s.reader.history.pageStateAt(pageId, { kind: "position", position: renamed.position })).toEqual({
      entries: [created, renamed],
      count: 2,
    });
    expect(await s.reader.history.pageStateAt(pageId, { kind: "position", position: created.position - 1 })).toEqual({
      entries: [],
      count: 0,
    });
    expect(await s.reader.history.pageStateAt(pageId, { kind: "time", ms: Date.parse(created.occurredAt) })).toEqual({
      entries: [created],
      count: 1,
    });
    expect(await s.reader.history.changesAfter(created.position, 1)).toEqual([o]);
    expect(await s.reader.history.changesAfter(created.position - 1, 10)).toEqual([c, o, r, g]);
    await expect(
      batch(async (tx) => {
        await w().history.record(tx, { ...renamed, position: at().updatedPosition }, renamedSummary);
        await w().history.putFolds(tx, new Map([[pageId, { ...fold, title: "lost" }]]));
        throw new Error("projection failed");
      }),
    ).rejects.toThrow("projection failed");
    expect(await s.reader.history.changesOf(pageId, all)).toHaveLength(3);
    await batch(async (tx) => expect(await w().history.foldOf(tx, pageId)).toEqual(fold));
  });

  it("counts a page's events across batches for its state at an instant, leaving grants and other pages out", async () => {
    const pageId = randomUUID();
    const otherId = randomUUID();
    const ownerId = randomUUID();
    const entry = (event: HistoryEntry["event"], entityId = pageId): HistoryEntry => {
      const when = at();
      return {
        position: when.updatedPosition,
        occurredAt: when.updatedAt,
        entityKind: "page",
        entityId,
        access: { kind: "page", id: entityId },
        actorId: ownerId,
        correlationId: randomUUID(),
        event,
      };
    };
    const created = entry({
      type: "PageCreated",
      data: {
        pageId: pageId as PageId,
        ownerId: ownerId as UserId,
        parentId: null,
        title: "T",
        icon: null,
        markdown: "first",
      },
    });
    const other = entry(
      {
        type: "PageCreated",
        data: {
          pageId: otherId as PageId,
          ownerId: ownerId as UserId,
          parentId: null,
          title: "O",
          icon: null,
          markdown: "",
        },
      },
      otherId,
    );
    const renamed = entry({ type: "PageRenamed", data: { pageId: pageId as PageId, title: "U", previousTitle: "T" } });
    const granted = entry({
      type: "AccessGranted",
      data: {
        entityType: "page",
        entityId: pageId,
        userId: randomUUID() as UserId,
        permission: "view",
        grantedBy: ownerId as UserId,
        invitationId: null,
      },
    });
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
    await expect(
      batch(async (tx) => {
        await w().history.record(tx, { ...replaced, position: at().updatedPosition }, summary);
        throw new Error("projection failed");
      }),
    ).rejects.toThrow("projection failed");
    await batch(async (tx) => w().history.record(tx, replaced, summary));
    expect(await s.reader.history.pageStateAt(pageId, { kind: "position", position: granted.position })).toEqual({
      entries: [created, renamed],
      count: 2,
    });
    expect(await s.reader.history.pageStateAt(pageId, { kind: "position", position: replaced.position })).toEqual({
      entries: [created, renamed, replaced],
      count: 3,
    });
    expect(await s.reader.history.pageStateAt(otherId, { kind: "time", ms: Date.parse(replaced.occurredAt) })).toEqual({
      entries: [other],
      count: 1,
    });
  });

  it("keeps a group's change under its workspace's access and gives it back with its summary", async () => {
    const groupId = randomUUID();
    const ownerId = randomUUID();
    const memberId = randomUUID();
    const when = at();
    const entry: HistoryEntry = {
      position: when.updatedPosition,
      occurredAt: when.updatedAt,
      entityKind: "group",
      entityId: groupId,
      access: { kind: "workspace", id: ownerId },
      actorId: ownerId,
      correlationId: randomUUID(),
      event: {
        type: "GroupMemberAdded",
        data: {
          groupId: groupId as GroupId,
          ownerId: ownerId as UserId,
          memberId: memberId as UserId,
          addedBy: ownerId as UserId,
          invitationId: null,
        },
      },
    };
    const summary: Summary = {
      change: { kind: "group", groupId, action: "member_added", memberId, role: null },
      sharing: false,
    };
    await batch(async (tx) => {
      await w().history.record(tx, entry, summary);
    });
    const stored = changeOf(entry, summary);
    const all = { order: "asc" as const, from: null, limit: 10, withSharing: false };
    expect(await s.reader.history.changesOf(groupId, all)).toEqual([stored]);
    expect(await s.reader.history.changesAfter(entry.position - 1, 10)).toContainEqual(stored);
  });
}
