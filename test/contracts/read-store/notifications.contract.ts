// Part of the read-store contract (read-store.contract.ts): notifications listed newest change first per user
// (all or unread), found by coalescing key, capped per user, marked read by id or up to a position; thread
// participants; what a range of positions produced, all users' or one user's; a group's id kept; users with unread
// ones; an erased user's and a purged page's rows gone.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { NotificationRecord } from "../../../shared/notifications/notifications.view.ts";
import { at, type ContractStores } from "./stores.ts";

function notification(userId: string, overrides: Partial<NotificationRecord> = {}): NotificationRecord {
  const when = at();
  return {
    id: randomUUID(),
    userId,
    kind: "replied",
    actorId: randomUUID(),
    pageId: randomUUID(),
    folderId: null,
    threadId: randomUUID(),
    groupId: null,
    coalesceKey: `event:${randomUUID()}`,
    createdAt: when.updatedAt,
    updatedAt: when.updatedAt,
    readAt: null,
    count: 1,
    actorIds: [],
    position: when.updatedPosition,
    ...overrides,
  };
}

export function notificationCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;

  it("lists a user's notifications newest change first, unread only on request, and keeps the newest past the cap", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const first = notification(ann, { coalesceKey: "replied:t1" });
    const second = notification(ann, { readAt: "2026-01-02T00:00:00.000Z" });
    const third = notification(ann);
    const bobs = notification(bob);
    await batch(async (tx) => {
      for (const entry of [first, second, third, bobs]) await w().notifications.put(tx, entry, 10);
    });
    expect(
      (await s.reader.notifications.list({ userId: ann, unreadOnly: false, before: null, limit: 10 })).map((n) => n.id),
    ).toEqual([third.id, second.id, first.id]);
    expect(
      (await s.reader.notifications.list({ userId: ann, unreadOnly: true, before: third.position, limit: 10 })).map(
        (n) => n.id,
      ),
    ).toEqual([first.id]);
    expect((await s.reader.notifications.unread(ann, 10)).map((n) => n.id)).toEqual([third.id, first.id]);
    expect(await s.reader.notifications.getMany(ann, [first.id, bobs.id])).toEqual([first]);
    expect((await s.reader.notifications.producedAt(bobs.position, 10)).map((n) => n.id)).toEqual([bobs.id]);
    expect((await s.reader.notifications.unreadSince(ann, first.position, 10)).map((n) => n.id)).toEqual([third.id]);

    const coalesced = { ...first, count: 2, actorIds: [randomUUID(), first.actorId], position: at().updatedPosition };
    await batch(async (tx) => {
      expect(await w().notifications.latestOf(tx, ann, "replied:t1")).toEqual(first);
      await w().notifications.put(tx, coalesced, 2);
    });
    expect(
      (await s.reader.notifications.list({ userId: ann, unreadOnly: false, before: null, limit: 10 })).map((n) => n.id),
    ).toEqual([first.id, third.id]);
    expect((await s.reader.notifications.getMany(ann, [first.id]))[0]).toEqual(coalesced);
  });

  it("marks read by id or up to a position, and forgets an erased user's and a purged page's rows", async () => {
    const [ann, bob, thread, pageId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const a = notification(ann);
    const b = notification(ann, { pageId });
    const c = notification(ann);
    const bobs = notification(bob);
    await batch(async (tx) => {
      for (const entry of [a, b, c, bobs]) await w().notifications.put(tx, entry, 10);
      await w().notifications.addParticipant(tx, thread, { userId: bob, pageId, started: false });
      await w().notifications.addParticipant(tx, thread, { userId: ann, pageId, started: true });
    });
    await batch(async (tx) => {
      expect(await w().notifications.participantsOf(tx, thread, 10)).toEqual([
        { userId: ann, pageId, started: true },
        { userId: bob, pageId, started: false },
      ]);
      await w().notifications.markRead(tx, ann, [a.id, bobs.id], "2026-02-01T00:00:00.000Z");
    });
    expect((await s.reader.notifications.unread(ann, 10)).map((n) => n.id)).toEqual([c.id, b.id]);
    expect((await s.reader.notifications.unread(bob, 10)).map((n) => n.id)).toEqual([bobs.id]);
    await batch(async (tx) => w().notifications.markAllRead(tx, ann, b.position, "2026-02-02T00:00:00.000Z"));
    expect((await s.reader.notifications.unread(ann, 10)).map((n) => n.id)).toEqual([c.id]);
    expect(await s.reader.notifications.usersWithUnread(null, 1000)).toEqual(expect.arrayContaining([ann, bob]));

    await batch(async (tx) => {
      await w().notifications.removePage(tx, pageId);
      await w().notifications.removeUser(tx, bob);
    });
    expect(
      (await s.reader.notifications.list({ userId: ann, unreadOnly: false, before: null, limit: 10 })).map((n) => n.id),
    ).toEqual([c.id, a.id]);
    expect(await s.reader.notifications.list({ userId: bob, unreadOnly: false, before: null, limit: 10 })).toEqual([]);
    expect(await s.reader.notifications.usersWithUnread(null, 1000)).not.toContain(bob);
    await batch(async (tx) => expect(await w().notifications.participantsOf(tx, thread, 10)).toEqual([]));
  });

  it("answers one user's notifications changed in a range of positions, oldest first, with their group", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const before = notification(ann);
    const groupAdded = notification(ann, { kind: "group_added", pageId: null, threadId: null, groupId: randomUUID() });
    const bobs = notification(bob);
    const last = notification(ann);
    const after = notification(ann);
    await batch(async (tx) => {
      for (const entry of [before, groupAdded, bobs, last, after]) await w().notifications.put(tx, entry, 10);
    });
    expect(await s.reader.notifications.changedBetween(ann, before.position, last.position, 10)).toEqual([
      groupAdded,
      last,
    ]);
    expect(await s.reader.notifications.changedBetween(ann, before.position, last.position, 1)).toEqual([groupAdded]);
    expect(await s.reader.notifications.changedBetween(bob, last.position, after.position, 10)).toEqual([]);
  });

  it("answers what a range of positions produced, by position then id, page by page", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const before = notification(ann);
    const position = at().updatedPosition;
    const sharing = [notification(ann, { position }), notification(bob, { position })].sort((a, b) =>
      a.id < b.id ? -1 : 1,
    );
    const later = notification(bob);
    await batch(async (tx) => {
      for (const entry of [before, ...sharing, later]) await w().notifications.put(tx, entry, 10);
    });
    const ids = (records: readonly NotificationRecord[]) => records.map((record) => record.id);
    expect(ids(await s.reader.notifications.producedBetween(before.position, later.position, null, 10))).toEqual([
      ...ids(sharing),
      later.id,
    ]);
    const [first] = await s.reader.notifications.producedBetween(before.position, later.position, null, 1);
    expect(first?.id).toBe(sharing[0]?.id);
    const rest = first ? await s.reader.notifications.producedBetween(before.position, later.position, first, 10) : [];
    expect(ids(rest)).toEqual([sharing[1]?.id, later.id]);
    const [lowest] = [ann, bob].sort();
    const afterLowest = await s.reader.notifications.usersWithUnread(lowest ?? null, 1000);
    expect(afterLowest).not.toContain(lowest);
  });
}
