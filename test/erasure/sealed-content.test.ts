// A page's and a folder's content through the sealing event store, over the real SQLite stores: every event
// that carries a title, markdown, comment or name stores it sealed under the item's own key, reads it back in
// the clear, and, once that key is destroyed, reads it as the erased value of its type, each event still valid
// against its schema; another page's content is untouched, and an answer recorded for an Idempotency-Key is
// sealed under the key of the page it wrote.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { envelopeHeader } from "../../shared/erasure/envelope.ts";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { subjects } from "../../shared/erasure/key-store.port.ts";
import { ERASED_ANCHOR, ERASED_PAGE_TITLE } from "../../shared/erasure/sealed-content.ts";
import { parseRecorded, type DomainEvent } from "../../shared/events.ts";
import {
  commentIdSchema,
  folderIdSchema,
  pageIdSchema,
  threadIdSchema,
  userIdSchema,
} from "../../shared/kernel/ids.ts";
import { sealingStoresPerTest } from "../support/sealing-stores.ts";

const kek = new KeyEncryptionKey("k".repeat(40));
const stores = sealingStoresPerTest(kek);

const ann = userIdSchema.parse(randomUUID());
const context = { actorId: ann, correlationId: "test", now: new Date("2026-11-01T10:00:00Z") };

function pageHistory(pageId: ReturnType<typeof pageIdSchema.parse>, word: string): DomainEvent[] {
  const title = `${word} title`;
  return [
    {
      type: "PageCreated",
      data: { pageId, ownerId: ann, parentId: null, title, icon: "🌿", markdown: `${word} markdown` },
    },
    { type: "PageRenamed", data: { pageId, title: `${word} renamed`, previousTitle: title } },
    { type: "PageContentReplaced", data: { pageId, markdown: `${word} rewritten` } },
    { type: "PageRestored", data: { pageId, title, icon: null, markdown: `${word} markdown`, restoredFrom: 1 } },
    { type: "PageDeleted", data: { pageId, ownerId: ann, parentId: null, title } },
    {
      type: "PageUndeleted",
      data: {
        pageId,
        ownerId: ann,
        parentId: null,
        title,
        icon: null,
        markdown: `${word} markdown`,
        createdAt: context.now.toISOString(),
      },
    },
  ];
}

describe("page and folder content under the item's key", () => {
  it("is sealed in every event that carries it, reads back in the clear, and reads as erased once the page's key is destroyed", async () => {
    const { sealed, raw, keys, rawBytes } = await stores();
    const pageId = pageIdSchema.parse(randomUUID());
    const otherId = pageIdSchema.parse(randomUUID());
    const threadId = threadIdSchema.parse(randomUUID());
    const commentId = commentIdSchema.parse(randomUUID());
    await sealed.append(`page-${pageId}`, toNewEvents(pageHistory(pageId, "Gallimaufry"), context), "no_stream");
    await sealed.append(`page-${otherId}`, toNewEvents(pageHistory(otherId, "Persisting"), context), "no_stream");
    const thread: DomainEvent[] = [
      {
        type: "ThreadOpened",
        data: { threadId, pageId, anchor: { quote: "Gallimaufry markdown", prefix: "", suffix: "" }, createdBy: ann },
      },
      { type: "CommentAdded", data: { threadId, commentId, authorId: ann, body: "a Skedaddling comment", pageId } },
      { type: "CommentEdited", data: { threadId, commentId, body: "an edited Skedaddling comment", pageId } },
    ];
    await sealed.append(`thread-${threadId}`, toNewEvents(thread, context), "no_stream");
    expect(rawBytes()).not.toMatch(/gallimaufry|skedaddling|persisting/);
    for (const stored of (await raw.read(`page-${pageId}`)).events) {
      const title = (stored.data as { title?: unknown }).title;
      if (typeof title === "string") expect(envelopeHeader(title)?.subject).toBe(subjects.page(pageId));
    }
    expect((await sealed.read(`page-${pageId}`)).events.map((recorded) => parseRecorded(recorded).event)).toEqual(
      pageHistory(pageId, "Gallimaufry"),
    );
    expect((await sealed.read(`thread-${threadId}`)).events.map((recorded) => parseRecorded(recorded).event)).toEqual(
      thread,
    );

    await keys.destroy(subjects.page(pageId.toUpperCase()));
    const erased = (await sealed.read(`page-${pageId}`)).events.map((recorded) => parseRecorded(recorded).event);
    expect(erased[0]).toEqual({
      type: "PageCreated",
      data: { pageId, ownerId: ann, parentId: null, title: ERASED_PAGE_TITLE, icon: null, markdown: "" },
    });
    expect(erased[1]).toEqual({
      type: "PageRenamed",
      data: { pageId, title: ERASED_PAGE_TITLE, previousTitle: ERASED_PAGE_TITLE },
    });
    expect(JSON.stringify(erased)).not.toMatch(/gallimaufry/i);
    const threadErased = (await sealed.read(`thread-${threadId}`)).events.map(
      (recorded) => parseRecorded(recorded).event,
    );
    expect(threadErased.map((event) => event.data)).toEqual([
      { threadId, pageId, anchor: ERASED_ANCHOR, createdBy: ann },
      { threadId, commentId, authorId: ann, body: "", pageId },
      { threadId, commentId, body: "", pageId },
    ]);
    expect((await sealed.read(`page-${otherId}`)).events.map((recorded) => parseRecorded(recorded).event)).toEqual(
      pageHistory(otherId, "Persisting"),
    );
  });

  it("seals a folder's name under the folder's key", async () => {
    const { sealed, keys, rawBytes } = await stores();
    const folderId = folderIdSchema.parse(randomUUID());
    const created: DomainEvent = {
      type: "FolderCreated",
      data: { folderId, ownerId: ann, parentId: null, name: "Hullabaloo", icon: null },
    };
    await sealed.append(
      `folder-${folderId}`,
      toNewEvents([created, { type: "FolderRenamed", data: { folderId, name: "Hullabaloo two" } }], context),
      "no_stream",
    );
    expect(rawBytes()).not.toContain("hullabaloo");
    await keys.destroy(subjects.folder(folderId));
    const [first, second] = (await sealed.read(`folder-${folderId}`)).events.map(
      (recorded) => parseRecorded(recorded).event.data,
    );
    expect(first).toMatchObject({ name: "Erased folder" });
    expect(second).toMatchObject({ name: "Erased folder" });
  });

  it("seals an answer recorded for an Idempotency-Key under the page it wrote, and any other under the caller's key", async () => {
    const { sealed, raw } = await stores();
    const pageId = pageIdSchema.parse(randomUUID());
    const completed = (
      location: string | undefined,
      body: Record<string, string>,
      about: { pageId?: typeof pageId } = {},
    ): DomainEvent => ({
      type: "IdempotentRequestCompleted",
      data: {
        keyHash: "a".repeat(64),
        fingerprint: "f",
        status: 201,
        body,
        consistencyToken: "1",
        completedAt: context.now.toISOString(),
        ...(location === undefined ? {} : { location }),
        ...about,
      },
    });
    const answers = [
      completed(`/api/v1/pages/${pageId}`, { id: pageId, title: "Kerfuffle" }),
      completed(`/api/v1/pages/${pageId}/comments/${randomUUID()}`, { body: "Kerfuffle" }),
      completed(`/api/v1/attachments/${randomUUID()}`, { pageId, filename: "kerfuffle.pdf" }),
      // An image's answer names only the image; its completion records the page it was uploaded to.
      completed(`/api/v1/images/${randomUUID()}`, { originalName: "kerfuffle.png" }, { pageId }),
      completed(`/api/v1/shares/invitations/${randomUUID()}`, { email: "someone@example.com" }),
    ];
    const subjectsOf: string[] = [];
    for (const [index, answer] of answers.entries()) {
      const stream = `idempotency-${String(index).repeat(64)}`;
      await sealed.append(stream, toNewEvents([answer], context), "no_stream");
      const [stored] = (await raw.read(stream)).events;
      subjectsOf.push(envelopeHeader(String((stored?.data as { body?: unknown }).body))?.subject ?? "none");
    }
    expect(subjectsOf).toEqual([
      subjects.page(pageId),
      subjects.page(pageId),
      subjects.page(pageId),
      subjects.page(pageId),
      subjects.user(ann),
    ]);
  });
});
