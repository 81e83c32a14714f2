// Part of the read-store contract (read-store.contract.ts). Templates, watches, notification settings, mentions
// and the people directory, each kept by the projections from the events themselves.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { project } from "../../../services/projector/projections/project.ts";
import { DEFAULT_DELIVERY_SETTINGS } from "../../../shared/notifications/notification-kinds.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import { HistoryFolds } from "../../../shared/history/history-folds.ts";
import { recordedBy, type ContractStores } from "./stores.ts";

/** Events as the log would hold them, each by its actor: validated by their schema, each at the next position. */
function recorded(events: ReadonlyArray<readonly [string, unknown]>): StoredEvent[] {
  return events.map(([actorId, raw]) => recordedBy(actorId, raw));
}

const created = (pageId: string, ownerId: string, markdown = "") => ({
  type: "PageCreated",
  data: { pageId, ownerId, parentId: null, title: "Plan", icon: null, markdown },
});
const registered = (userId: string, name: string, email: string) => ({
  type: "UserRegistered",
  data: { userId, email, name, image: null },
});

export function teamCases<Tx>(s: ContractStores<Tx>): void {
  const apply = (events: readonly StoredEvent[]) =>
    s.projection.applyBatch(events.at(-1)?.position ?? 0, async (tx) => {
      const folds = new HistoryFolds(s.projection.writers.history, tx);
      for (const event of events) await project(event, s.projection.writers, tx, folds);
      await folds.flush();
    });
  const everyoneOf = (ownerId: string) => ({ ownerIds: [ownerId], pageIds: [], folderIds: [] });

  it("lists a marked template to those who can view its page, newest marked first, and forgets it once unmarked", async () => {
    const [ann, first, second] = [randomUUID(), randomUUID(), randomUUID()];
    await apply(
      recorded([
        [ann, created(first, ann)],
        [ann, created(second, ann)],
        [ann, { type: "PageMarkedTemplate", data: { pageId: first } }],
        [ann, { type: "PageMarkedTemplate", data: { pageId: second } }],
      ]),
    );
    const listed = await s.reader.templates.list({ visibleTo: everyoneOf(ann), before: null, limit: 10 });
    expect(listed.map((row) => row.pageId)).toEqual([second, first]);
    expect(await s.reader.templates.list({ visibleTo: everyoneOf(randomUUID()), before: null, limit: 10 })).toEqual([]);
    await apply(recorded([[ann, { type: "PageUnmarkedTemplate", data: { pageId: second } }]]));
    expect(
      (await s.reader.templates.list({ visibleTo: everyoneOf(ann), before: null, limit: 10 })).map((row) => row.pageId),
    ).toEqual([first]);
    expect(await s.reader.templates.isTemplate(second)).toBe(false);
  });

  it("watches a page for its author unless they stopped or turned automatic watches off, and reads watchers in batches", async () => {
    const [ann, bob, carl, pageId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await apply(
      recorded([
        [
          carl,
          {
            type: "NotificationSettingsChanged",
            data: { userId: carl, autoWatch: false, delivery: DEFAULT_DELIVERY_SETTINGS },
          },
        ],
        [ann, created(pageId, ann)],
        [bob, { type: "PageWatched", data: { pageId, userId: bob } }],
        [carl, { type: "PageContentReplaced", data: { pageId, markdown: "edited" } }],
      ]),
    );
    expect(await s.reader.notificationSettings.get(carl)).toEqual({
      autoWatch: false,
      delivery: DEFAULT_DELIVERY_SETTINGS,
    });
    expect(await s.reader.watches.stateOf("page", pageId, carl)).toBeNull();
    const everyone = [ann, bob].sort();
    expect(await s.reader.watches.watchersOf("page", pageId, null, 10)).toEqual(everyone);
    expect(await s.reader.watches.watchersOf("page", pageId, null, 1)).toEqual(everyone.slice(0, 1));
    expect(await s.reader.watches.watchersOf("page", pageId, everyone[0] ?? null, 10)).toEqual(everyone.slice(1));
    await apply(
      recorded([
        [ann, { type: "PageUnwatched", data: { pageId, userId: ann } }],
        [ann, { type: "PageContentReplaced", data: { pageId, markdown: "again" } }],
      ]),
    );
    expect(await s.reader.watches.stateOf("page", pageId, ann)).toBe("unwatched");
    expect(await s.reader.watches.watchersOf("page", pageId, null, 10)).toEqual([bob]);
  });

  it("records who a page mentions, keeping where a mention first appeared", async () => {
    const [ann, bob, pageId] = [randomUUID(), randomUUID(), randomUUID()];
    const [first] = recorded([[ann, created(pageId, ann, `[@Bob](mention:${bob})`)]]);
    if (!first) throw new Error("no event");
    await apply([first]);
    await apply(
      recorded([
        [
          ann,
          {
            type: "PageContentReplaced",
            data: { pageId, markdown: `[@Bob](mention:${bob}) and [@Ann](mention:${ann})` },
          },
        ],
      ]),
    );
    const mentions = await s.reader.mentions.mentionsIn({ kind: "page", id: pageId });
    expect(mentions.find((mention) => mention.userId === bob)?.since).toBe(first.position);
    expect(mentions.map((mention) => mention.userId).sort()).toEqual([ann, bob].sort());
  });

  const notified = async (userId: string) =>
    (await s.reader.notifications.list({ userId, unreadOnly: false, before: null, limit: 50 })).map((n) => ({
      kind: n.kind,
      pageId: n.pageId,
      folderId: n.folderId,
      count: n.count,
    }));
  const granted = (entityType: "page" | "folder", entityId: string, userId: string, grantedBy: string) => ({
    type: "AccessGranted",
    data: { entityType, entityId, userId, permission: "view", grantedBy, invitationId: null },
  });

  it("tells a newly mentioned user who can view the page, once, and nobody who cannot", async () => {
    const [ann, bob, stranger, pageId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const both = `[@Bob](mention:${bob}) [@Sam](mention:${stranger})`;
    await apply(
      recorded([
        [ann, created(pageId, ann)],
        [ann, granted("page", pageId, bob, ann)],
        [ann, { type: "PageContentReplaced", data: { pageId, markdown: both } }],
        [ann, { type: "PageContentReplaced", data: { pageId, markdown: `${both} again` } }],
      ]),
    );
    expect((await notified(bob)).filter((n) => n.kind === "mentioned")).toEqual([
      { kind: "mentioned", pageId, folderId: null, count: 1 },
    ]);
    expect(await notified(stranger)).toEqual([]);
  });

  it("tells the watchers of a page and of the folders above it of a content change, coalesced, while they can view it, not who stopped watching the page", async () => {
    const [ann, bob, carl, dee, eve, folderId, pageId] = [1, 2, 3, 4, 5, 6, 7].map(() => randomUUID());
    if (!ann || !bob || !carl || !dee || !eve || !folderId || !pageId) throw new Error("ids");
    await apply(
      recorded([
        [ann, { type: "FolderCreated", data: { folderId, ownerId: ann, parentId: null, name: "Team", icon: null } }],
        [ann, { ...created(pageId, ann), data: { ...created(pageId, ann).data, parentId: folderId } }],
        [ann, granted("folder", folderId, bob, ann)],
        [ann, granted("folder", folderId, carl, ann)],
        [bob, { type: "FolderWatched", data: { folderId, userId: bob } }],
        [carl, { type: "PageWatched", data: { pageId, userId: carl } }],
        [dee, { type: "PageWatched", data: { pageId, userId: dee } }],
        [eve, { type: "FolderWatched", data: { folderId, userId: eve } }],
        [eve, { type: "PageUnwatched", data: { pageId, userId: eve } }],
        [ann, granted("folder", folderId, eve, ann)],
        [ann, { type: "PageContentReplaced", data: { pageId, markdown: "one" } }],
        [ann, { type: "PageContentReplaced", data: { pageId, markdown: "two" } }],
      ]),
    );
    const change = { kind: "watched_changed", pageId, folderId: null, count: 2 };
    expect((await notified(bob)).filter((n) => n.kind === "watched_changed")).toEqual([change]);
    expect((await notified(carl)).filter((n) => n.kind === "watched_changed")).toEqual([change]);
    expect(await notified(dee)).toEqual([]);
    expect((await notified(eve)).filter((n) => n.kind === "watched_changed")).toEqual([]);
    expect((await notified(ann)).filter((n) => n.kind === "watched_changed")).toEqual([]);
  });

  it("tells a new group member they were added, and a group's members of what it was given", async () => {
    const [ann, bob, groupId, folderId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await apply(
      recorded([
        [ann, { type: "GroupCreated", data: { groupId, ownerId: ann, name: "Crew", createdBy: ann } }],
        [
          ann,
          {
            type: "GroupMemberAdded",
            data: { groupId, ownerId: ann, memberId: bob, addedBy: ann, invitationId: null },
          },
        ],
        [ann, { type: "FolderCreated", data: { folderId, ownerId: ann, parentId: null, name: "Shared", icon: null } }],
        [
          ann,
          {
            type: "GroupAccessGranted",
            data: { entityType: "folder", entityId: folderId, groupId, permission: "view", grantedBy: ann },
          },
        ],
      ]),
    );
    expect(await notified(bob)).toEqual([
      { kind: "shared", pageId: null, folderId, count: 1 },
      { kind: "group_added", pageId: null, folderId: null, count: 1 },
    ]);
  });

  it("finds people only in the searcher's circle, an address only where it is shown to them", async () => {
    const [ann, bob, stranger, pageId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const bobEmail = `bob-${bob}@example.com`;
    await apply(
      recorded([
        [ann, registered(ann, "Ann Able", `ann-${ann}@example.com`)],
        [bob, registered(bob, "Bob Baker", bobEmail)],
        [stranger, registered(stranger, "Sam Stranger", `sam-${stranger}@example.com`)],
        [ann, created(pageId, ann)],
        [
          ann,
          {
            type: "AccessGranted",
            data: {
              entityType: "page",
              entityId: pageId,
              userId: bob,
              permission: "view",
              grantedBy: ann,
              invitationId: null,
            },
          },
        ],
      ]),
    );
    const search = (viewerId: string, prefix: string) =>
      s.reader.directory.search({ viewerId, joinedWorkspaces: [], prefix, limit: 10 });
    expect(await search(ann, "bak")).toEqual([{ id: bob, name: "Bob Baker", email: bobEmail, image: null }]);
    expect(await search(ann, bobEmail.slice(0, 6))).toEqual([
      { id: bob, name: "Bob Baker", email: bobEmail, image: null },
    ]);
    expect(await search(bob, "ann")).toEqual([expect.objectContaining({ id: ann, email: null })]);
    expect(await search(bob, `ann-${ann}`.slice(0, 6))).toEqual([]);
    expect(await search(stranger, "ann")).toEqual([]);
    await apply(
      recorded([
        [ann, { type: "AccessRevoked", data: { entityType: "page", entityId: pageId, userId: bob, revokedBy: ann } }],
      ]),
    );
    expect(await search(ann, "bob")).toEqual([]);
  });
}
