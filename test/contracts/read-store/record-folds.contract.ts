// Part of the read-store contract (read-store.contract.ts). Each record fold is the oracle: a sequence of events
// applied by the projections through the adapter's writers reads back as the fold of the same events.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { threadRecord } from "../../../shared/threads/thread.record.ts";
import type { DomainEvent, StoredEvent } from "../../../shared/events.ts";
import { folderRecord } from "../../../shared/folders/folder.record.ts";
import {
  commentIdSchema,
  folderIdSchema,
  invitationIdSchema,
  pageIdSchema,
  threadIdSchema,
  userIdSchema,
} from "../../../shared/kernel/ids.ts";
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
}
