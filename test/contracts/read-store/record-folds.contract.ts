// Part of the read-store contract (read-store.contract.ts). Each record fold is the oracle: a sequence of events
// applied by the projections through the adapter's writers reads back as the fold of the same events.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { threadRecord } from "../../../shared/threads/thread.record.ts";
import type { DomainEvent, StoredEvent } from "../../../shared/events.ts";
import { placedIn } from "../../../shared/folders/folder-place.ts";
import { folderRecord } from "../../../shared/folders/folder.record.ts";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import {
  commentIdSchema,
  folderIdSchema,
  invitationIdSchema,
  pageIdSchema,
  threadIdSchema,
  userIdSchema,
} from "../../../shared/kernel/ids.ts";
import type { PageRecord } from "../../../shared/pages/page-record.ts";
import { pageRecord } from "../../../shared/pages/page.record.ts";
import { invitationRecord } from "../../../shared/sharing/invitation.record.ts";
import { projectThread } from "../../../services/projector/projections/threads.projection.ts";
import { projectFolder } from "../../../services/projector/projections/folders.projection.ts";
import { projectInvitation } from "../../../services/projector/projections/invitations.projection.ts";
import { projectPage } from "../../../services/projector/projections/pages.projection.ts";
import type { ThreadEvent } from "../../../shared/threads/thread.decider.ts";
import type { FolderEvent } from "../../../shared/folders/folder.decider.ts";
import type { PageEvent } from "../../../shared/pages/page.decider.ts";
import type { InvitationEvent } from "../../../shared/sharing/invitation.decider.ts";
import { at, storedStream, type ContractStores } from "./stores.ts";

export function recordFoldCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  /** Each event in a batch of its own, through the projection that the projector routes it to. */
  const apply = async <E extends DomainEvent>(
    events: readonly StoredEvent<E>[],
    projection: (stored: StoredEvent<E>, writers: ReturnType<typeof w>, tx: Tx) => Promise<void>,
  ) => {
    for (const stored of events) await batch((tx) => projection(stored, w(), tx));
  };

  it("holds a thread as its fold: replies, an edit and a deletion move the thread's updatedAt, resolving and reopening", async () => {
    const threadId = threadIdSchema.parse(randomUUID());
    const pageId = pageIdSchema.parse(randomUUID());
    const [ann, bob] = [userIdSchema.parse(randomUUID()), userIdSchema.parse(randomUUID())];
    const [first, reply] = [commentIdSchema.parse(randomUUID()), commentIdSchema.parse(randomUUID())];
    const anchor = { quote: "words", prefix: "some ", suffix: " here" };
    const events = storedStream<ThreadEvent>(`thread-${threadId}`, [
      { type: "ThreadOpened", data: { threadId, pageId, anchor, createdBy: ann } },
      { type: "CommentAdded", data: { threadId, commentId: first, authorId: ann, body: "first" } },
      { type: "CommentAdded", data: { threadId, commentId: reply, authorId: bob, body: "reply" } },
      { type: "ThreadResolved", data: { threadId, resolvedBy: bob } },
      { type: "CommentEdited", data: { threadId, commentId: first, body: "first, edited" } },
      { type: "ThreadReopened", data: { threadId, reopenedBy: ann } },
      { type: "CommentDeleted", data: { threadId, commentId: reply } },
    ]);
    for (let length = 1; length <= events.length; length += 1) {
      await apply(events.slice(length - 1, length), projectThread);
      expect(await s.reader.threads.get(threadId)).toEqual(threadRecord.fold(events.slice(0, length)));
    }
  });

  it("holds an invitation as its fold through a change of access, a failed delivery, a resend and its acceptance", async () => {
    const invitationId = invitationIdSchema.parse(randomUUID());
    const invitedBy = userIdSchema.parse(randomUUID());
    const access = {
      targetType: "page" as const,
      targetId: pageIdSchema.parse(randomUUID()),
      permission: "view" as const,
    };
    const attemptId = randomUUID();
    const events = storedStream<InvitationEvent>(`invitation-${invitationId}`, [
      {
        type: "InvitationQueued",
        data: { invitationId, email: `${randomUUID()}@example.com`, access, invitedBy, expiresAt: at().updatedAt },
      },
      { type: "InvitationPermissionChanged", data: { invitationId, access: { ...access, permission: "edit" } } },
      { type: "InvitationDeliveryStarted", data: { invitationId, attemptId, startedAt: at().updatedAt } },
      {
        type: "InvitationDeliveryFailed",
        data: { invitationId, attemptId, reason: "refused", failedAt: at().updatedAt },
      },
      { type: "InvitationResent", data: { invitationId, resentAt: at().updatedAt } },
      { type: "InvitationDelivered", data: { invitationId, deliveredAt: at().updatedAt } },
      { type: "InvitationAccepted", data: { invitationId, userId: userIdSchema.parse(randomUUID()) } },
      { type: "InvitationAddressErased", data: { invitationId } },
    ]);
    for (let length = 1; length <= events.length; length += 1) {
      await apply(events.slice(length - 1, length), projectInvitation);
      expect(await s.reader.invitations.get(invitationId)).toEqual(invitationRecord.fold(events.slice(0, length)));
    }
  });

  it("holds a folder and a page at the root as their folds through renames, icons and a content change", async () => {
    const ownerId = userIdSchema.parse(randomUUID());
    const folderId = folderIdSchema.parse(randomUUID());
    const pageId = pageIdSchema.parse(randomUUID());
    const folderEvents = storedStream<FolderEvent>(`folder-${folderId}`, [
      { type: "FolderCreated", data: { folderId, ownerId, parentId: null, name: "Plans", icon: null } },
      { type: "FolderRenamed", data: { folderId, name: "Plans for 2027" } },
      { type: "FolderIconChanged", data: { folderId, icon: "🗂" } },
    ]);
    const pageEvents = storedStream<PageEvent>(`page-${pageId}`, [
      { type: "PageCreated", data: { pageId, ownerId, parentId: null, title: "Notes", icon: null, markdown: "a" } },
      { type: "PageRenamed", data: { pageId, title: "Notes, kept", previousTitle: "Notes" } },
      { type: "PageIconChanged", data: { pageId, icon: "📝" } },
      { type: "PageContentReplaced", data: { pageId, markdown: "b" } },
    ]);
    await apply(folderEvents, projectFolder);
    await apply(pageEvents, projectPage);
    expect(await s.reader.folders.get(folderId)).toEqual(folderRecord.fold(folderEvents));
    expect(await s.reader.pages.get(pageId)).toEqual(pageRecord.fold(pageEvents));
  });

  /**
   * A page made in a folder, renamed, re-iconed, edited, moved deeper, renamed again, restored, moved to the
   * root, deleted and brought back into a folder; the fold leaves a made or moved page at the root, so the
   * oracle places it in its folder as the projection does.
   */
  async function pageThroughEveryChange() {
    const ownerId = userIdSchema.parse(randomUUID());
    const [outerId, innerId] = [folderIdSchema.parse(randomUUID()), folderIdSchema.parse(randomUUID())];
    const pageId = pageIdSchema.parse(randomUUID());
    await apply(
      storedStream<FolderEvent>(`folder-${outerId}`, [
        { type: "FolderCreated", data: { folderId: outerId, ownerId, parentId: null, name: "Outer", icon: null } },
      ]),
      projectFolder,
    );
    await apply(
      storedStream<FolderEvent>(`folder-${innerId}`, [
        { type: "FolderCreated", data: { folderId: innerId, ownerId, parentId: outerId, name: "Inner", icon: null } },
      ]),
      projectFolder,
    );
    const folders = new Map<string, FolderRecord | null>();
    for (const id of [outerId, innerId]) folders.set(id, await s.reader.folders.get(id));
    const events = storedStream<PageEvent>(`page-${pageId}`, [
      { type: "PageCreated", data: { pageId, ownerId, parentId: outerId, title: "Notes", icon: null, markdown: "a" } },
      { type: "PageRenamed", data: { pageId, title: "Notes, kept", previousTitle: "Notes" } },
      { type: "PageIconChanged", data: { pageId, icon: "📝" } },
      { type: "PageContentReplaced", data: { pageId, markdown: "b marmalade" } },
      { type: "PageMoved", data: { pageId, parentId: innerId } },
      { type: "PageRenamed", data: { pageId, title: "Quince notes", previousTitle: "Notes, kept" } },
      { type: "PageRestored", data: { pageId, title: "Notes", icon: null, markdown: "a", restoredFrom: 0 } },
      { type: "PageMoved", data: { pageId, parentId: null } },
      { type: "PageDeleted", data: { pageId, ownerId, parentId: null, title: "Notes" } },
      {
        type: "PageUndeleted",
        data: { pageId, ownerId, parentId: innerId, title: "Notes", icon: null, markdown: "c", createdAt: "x" },
      },
    ]);
    const expected = (upTo: number): { page: PageRecord | null; markdown: string | null } => {
      const folded = pageRecord.fold(events.slice(0, upTo));
      const page = folded && { ...folded, ...placedIn(folded.parentId ? folders.get(folded.parentId) : null) };
      const carried = events.slice(0, upTo).flatMap(({ event }) => ("markdown" in event.data ? [event.data] : []));
      return { page, markdown: page && (carried.at(-1)?.markdown ?? null) };
    };
    const stored = async () => {
      const content = await s.reader.pages.getContent(pageId);
      return { page: await s.reader.pages.get(pageId), markdown: content?.markdown ?? null };
    };
    const visibleTo = { ownerIds: [ownerId], folderIds: [], pageIds: [] };
    /** The ids of the pages a search for the word finds. */
    const found = async (word: string) =>
      (
        await s.reader.pages.search({
          terms: [{ kind: "word", text: word, prefix: false }],
          visibleTo,
          offset: 0,
          limit: 10,
        })
      ).map((hit) => hit.page.id);
    return { events, expected, stored, found };
  }

  it("holds a page as its fold, placed in its folder, after each rename, icon, edit, restore, move and return", async () => {
    const { events, expected, stored, found } = await pageThroughEveryChange();
    for (let length = 1; length <= events.length; length += 1) {
      await apply(events.slice(length - 1, length), projectPage);
      const { page, markdown } = expected(length);
      expect(await stored()).toEqual({ page, markdown });
      // The search index follows each title and content, each event in a batch of its own.
      for (const word of ["quince", "marmalade"]) {
        const holds = page !== null && `${page.title} ${markdown ?? ""}`.toLowerCase().includes(word);
        expect(await found(word)).toEqual(page && holds ? [page.id] : []);
      }
    }
  });

  it("holds a page as its fold when one batch applies its every change, and finds it by its last title and content", async () => {
    const { events, expected, stored, found } = await pageThroughEveryChange();
    const upToRestore = events.findIndex(({ event }) => event.type === "PageRestored") + 1;
    const upToRename = upToRestore - 1;
    await batch(async (tx) => {
      for (const event of events.slice(0, upToRename)) await projectPage(event, w(), tx);
    });
    expect(await stored()).toEqual(expected(upToRename));
    const pageId = events[0]?.event.data.pageId;
    expect(await found("quince")).toEqual([pageId]);
    expect(await found("marmalade")).toEqual([pageId]);
    await batch(async (tx) => {
      for (const event of events.slice(upToRename)) await projectPage(event, w(), tx);
    });
    expect(await stored()).toEqual(expected(events.length));
    expect(await found("quince")).toEqual([]);
  });
}
