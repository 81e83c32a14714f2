import { describe, it } from "vitest";
import { folderIdSchema, pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { pageDecider, type PageEvent } from "../../shared/pages/page.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(pageDecider);

const pageId = pageIdSchema.parse("6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10");
const ownerId = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const created: PageEvent = {
  type: "PageCreated",
  data: { pageId, ownerId, parentId: null, title: "Plan", icon: null, markdown: "v1" },
};

describe("page decider", () => {
  it("a new page is created once", () => {
    given([])
      .when({ type: "CreatePage", pageId, ownerId, parentId: null, title: "Plan", icon: null, markdown: "v1" })
      .then([created]);
    given([created])
      .when({ type: "CreatePage", pageId, ownerId, parentId: null, title: "Plan", icon: null, markdown: "v1" })
      .thenRefuses("conflict");
  });

  it("a rename to the same title records nothing; a title and icon change records both", () => {
    given([created]).when({ type: "UpdatePage", pageId, title: "Plan" }).then([]);
    given([created])
      .when({ type: "UpdatePage", pageId, title: "New", icon: "⭐" })
      .then([
        { type: "PageRenamed", data: { pageId, title: "New", previousTitle: "Plan" } },
        { type: "PageIconChanged", data: { pageId, icon: "⭐" } },
      ]);
  });

  it("replacing content needs the current revision", () => {
    const renamed: PageEvent = { type: "PageRenamed", data: { pageId, title: "B", previousTitle: "Plan" } };
    given([created, renamed])
      .when({ type: "ReplaceContent", pageId, markdown: "v2", ifMatchRevision: 0 })
      .thenRefuses("precondition_failed");
    given([created, renamed])
      .when({ type: "ReplaceContent", pageId, markdown: "v2", ifMatchRevision: 1 })
      .then([{ type: "PageContentReplaced", data: { pageId, markdown: "v2" } }]);
  });

  it("span edits apply in order, all or none, at the ETag's revision; a span found zero or several times refuses them all", () => {
    const text: PageEvent = {
      type: "PageContentReplaced",
      data: { pageId, markdown: "One fish. Two fish. Red fish." },
    };
    const edit = { type: "EditContent" as const, pageId, ifMatchRevision: 1, maxChars: 100 };
    given([created, text])
      .when({
        ...edit,
        edits: [
          { oldText: "One fish.", newText: "1 fish." },
          { oldText: "1 fish. Two", newText: "1 fish. 2" },
        ],
      })
      .then([{ type: "PageContentReplaced", data: { pageId, markdown: "1 fish. 2 fish. Red fish." } }]);
    given([created, text])
      .when({
        ...edit,
        edits: [
          { oldText: "One", newText: "1" },
          { oldText: "Blue", newText: "2" },
        ],
      })
      .thenRefuses("validation_failed");
    given([created, text])
      .when({ ...edit, edits: [{ oldText: "fish", newText: "cat" }] })
      .thenRefuses("validation_failed");
    given([created, text])
      .when({ ...edit, ifMatchRevision: 0, edits: [{ oldText: "One", newText: "1" }] })
      .thenRefuses("precondition_failed");
    given([created, text])
      .when({ ...edit, maxChars: 29, edits: [{ oldText: "One", newText: "Three" }] })
      .thenRefuses("validation_failed");
    given([created, text])
      .when({ ...edit, edits: [{ oldText: "One", newText: "One" }] })
      .then([]);
  });

  it("an addition lands on the content as decided, checks If-Match only when sent, and keeps within the limit", () => {
    const edited: PageEvent = { type: "PageContentReplaced", data: { pageId, markdown: "v2" } };
    const add = { type: "AddContent" as const, pageId, ifMatchRevision: null, maxChars: 6 };
    given([created, edited])
      .when({ ...add, text: "+a", at: "end" })
      .then([{ type: "PageContentReplaced", data: { pageId, markdown: "v2+a" } }]);
    given([created, edited])
      .when({ ...add, text: "a+", at: "start" })
      .then([{ type: "PageContentReplaced", data: { pageId, markdown: "a+v2" } }]);
    given([created, edited])
      .when({ ...add, text: "+a", at: "end", ifMatchRevision: 0 })
      .thenRefuses("precondition_failed");
    given([created, edited])
      .when({ ...add, text: "+a", at: "end", ifMatchRevision: 1 })
      .then([{ type: "PageContentReplaced", data: { pageId, markdown: "v2+a" } }]);
    given([created, edited])
      .when({ ...add, text: "+abcd", at: "end" })
      .thenRefuses("validation_failed");
    given([created, edited])
      .when({ ...add, text: "", at: "end" })
      .then([]);
  });

  it("a deletion records where the page was; only a deleted page comes back from the trash, whole, and only until purged", () => {
    const deleted: PageEvent = { type: "PageDeleted", data: { pageId, ownerId, parentId: null, title: "Plan" } };
    given([created]).when({ type: "DeletePage", pageId }).then([deleted]);
    const undelete = { type: "UndeletePage" as const, pageId, parentId: null, createdAt: "2026-01-01T00:00:00.000Z" };
    given([created, deleted])
      .when(undelete)
      .then([
        {
          type: "PageUndeleted",
          data: {
            pageId,
            ownerId,
            parentId: null,
            title: "Plan",
            icon: null,
            markdown: "v1",
            createdAt: "2026-01-01T00:00:00.000Z",
          },
        },
      ]);
    given([created]).when(undelete).thenRefuses("not_found");
    given([created, deleted])
      .when({ type: "PurgePage", pageId })
      .then([{ type: "PagePurged", data: { pageId } }]);
    const purged: PageEvent = { type: "PagePurged", data: { pageId } };
    given([created, deleted, purged]).when(undelete).thenRefuses("not_found");
    given([created, deleted, purged]).when({ type: "PurgePage", pageId }).then([]);
    given([created]).when({ type: "PurgePage", pageId }).then([]);
  });

  it("a deleted page refuses every change as not found", () => {
    const deleted: PageEvent = { type: "PageDeleted", data: { pageId } };
    given([created, deleted]).when({ type: "UpdatePage", pageId, title: "x" }).thenRefuses("not_found");
    given([created, deleted]).when({ type: "DeletePage", pageId }).thenRefuses("not_found");
    given([]).when({ type: "DeletePage", pageId }).thenRefuses("not_found");
  });

  it("a restore needs the current revision, records the earlier title, icon and content, and nothing when they are already those", () => {
    const restore = {
      type: "RestorePage" as const,
      pageId,
      title: "Plan",
      icon: null,
      markdown: "v1",
      restoredFrom: 1,
    };
    const edited: PageEvent = { type: "PageContentReplaced", data: { pageId, markdown: "v2" } };
    given([created, edited])
      .when({ ...restore, ifMatchRevision: 0 })
      .thenRefuses("precondition_failed");
    given([created, edited])
      .when({ ...restore, ifMatchRevision: 1 })
      .then([{ type: "PageRestored", data: { pageId, title: "Plan", icon: null, markdown: "v1", restoredFrom: 1 } }]);
    given([created])
      .when({ ...restore, ifMatchRevision: 0 })
      .then([]);
  });

  it("a deleted page cannot be restored", () => {
    const deleted: PageEvent = { type: "PageDeleted", data: { pageId } };
    given([created, deleted])
      .when({
        type: "RestorePage",
        pageId,
        title: "Plan",
        icon: null,
        markdown: "v1",
        restoredFrom: 1,
        ifMatchRevision: 1,
      })
      .thenRefuses("not_found");
  });
});

describe("page decider: moves", () => {
  const folderId = folderIdSchema.parse("6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a99");
  it("a page moves into a folder and back to the root; a move where it is records nothing", () => {
    given([created])
      .when({ type: "MovePage", pageId, parentId: folderId })
      .then([{ type: "PageMoved", data: { pageId, parentId: folderId } }]);
    given([created]).when({ type: "MovePage", pageId, parentId: null }).then([]);
    given([created, { type: "PageMoved", data: { pageId, parentId: folderId } }])
      .when({ type: "MovePage", pageId, parentId: null })
      .then([{ type: "PageMoved", data: { pageId, parentId: null } }]);
  });

  it("a deleted page cannot be moved", () => {
    given([created, { type: "PageDeleted", data: { pageId } }])
      .when({ type: "MovePage", pageId, parentId: folderId })
      .thenRefuses("not_found");
  });
});
