import { describe, it } from "vitest";
import { folderDecider, type FolderEvent } from "../../shared/folders/folder.decider.ts";
import { folderTreeDecider, type FolderTreeEvent } from "../../shared/folders/folder-tree.decider.ts";
import { folderIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const folder = deciderSpec(folderDecider);
const tree = deciderSpec(folderTreeDecider);

const ownerId = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const a = folderIdSchema.parse("6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10");
const b = folderIdSchema.parse("6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a11");
const c = folderIdSchema.parse("6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a12");
const created: FolderEvent = {
  type: "FolderCreated",
  data: { folderId: a, ownerId, parentId: null, name: "Plans", icon: null },
};

describe("folder decider", () => {
  it("a rename to the same name records nothing; a name and icon change records both", () => {
    folder.given([created]).when({ type: "UpdateFolder", folderId: a, name: "Plans" }).then([]);
    folder
      .given([created])
      .when({ type: "UpdateFolder", folderId: a, name: "Old plans", icon: "📁" })
      .then([
        { type: "FolderRenamed", data: { folderId: a, name: "Old plans" } },
        { type: "FolderIconChanged", data: { folderId: a, icon: "📁" } },
      ]);
  });

  it("a folder is deleted only while empty, and a deleted folder refuses every change as not found", () => {
    const deleted: FolderEvent = {
      type: "FolderDeleted",
      data: { folderId: a, ownerId, parentId: null, name: "Plans", deletedWith: null },
    };
    const remove = { type: "DeleteFolder" as const, folderId: a, parentId: null, deletedWith: null };
    folder
      .given([created])
      .when({ ...remove, isEmpty: false })
      .thenRefuses("conflict");
    folder
      .given([created])
      .when({ ...remove, isEmpty: true })
      .then([deleted]);
    folder
      .given([created, deleted])
      .when({ ...remove, isEmpty: true })
      .thenRefuses("not_found");
    folder.given([created, deleted]).when({ type: "UpdateFolder", folderId: a, name: "x" }).thenRefuses("not_found");
    folder.given([]).when({ type: "UpdateFolder", folderId: a, name: "x" }).thenRefuses("not_found");
  });

  it("only a deleted folder comes back from the trash, whole, into the folder it is given", () => {
    const deleted: FolderEvent = {
      type: "FolderDeleted",
      data: { folderId: a, ownerId, parentId: b, name: "Plans", deletedWith: null },
    };
    const undelete = {
      type: "UndeleteFolder" as const,
      folderId: a,
      parentId: null,
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    folder
      .given([created, deleted])
      .when(undelete)
      .then([
        {
          type: "FolderUndeleted",
          data: {
            folderId: a,
            ownerId,
            parentId: null,
            name: "Plans",
            icon: null,
            createdAt: "2026-01-01T00:00:00.000Z",
          },
        },
      ]);
    folder.given([created]).when(undelete).thenRefuses("not_found");
    const undeleted: FolderEvent = {
      type: "FolderUndeleted",
      data: { folderId: a, ownerId, parentId: null, name: "Plans", icon: null, createdAt: "2026-01-01T00:00:00.000Z" },
    };
    folder
      .given([created, deleted, undeleted])
      .when({ type: "UpdateFolder", folderId: a, name: "Again" })
      .then([{ type: "FolderRenamed", data: { folderId: a, name: "Again" } }]);
  });
});

describe("folder tree decider", () => {
  // a, b and c were all created at the root.
  const createdParents = new Map<string, string | null>([
    [a, null],
    [b, null],
    [c, null],
  ]);
  const moved = (folderId: typeof a, parentId: typeof a | null): FolderTreeEvent => ({
    type: "FolderMoved",
    data: { folderId, ownerId, parentId },
  });

  it("a folder moves into another folder, and back to the root", () => {
    tree
      .given([])
      .when({ type: "MoveFolder", folderId: a, ownerId, parentId: b, createdParents })
      .then([moved(a, b)]);
    tree
      .given([moved(a, b)])
      .when({ type: "MoveFolder", folderId: a, ownerId, parentId: null, createdParents })
      .then([moved(a, null)]);
  });

  it("moving a folder where it already is records nothing", () => {
    tree.given([]).when({ type: "MoveFolder", folderId: a, ownerId, parentId: null, createdParents }).then([]);
    tree
      .given([moved(a, b)])
      .when({ type: "MoveFolder", folderId: a, ownerId, parentId: b, createdParents })
      .then([]);
  });

  it("a folder cannot be moved into itself", () => {
    tree
      .given([])
      .when({ type: "MoveFolder", folderId: a, ownerId, parentId: a, createdParents })
      .thenRefuses("conflict");
  });

  it("a folder cannot be moved into a folder below it, however deep", () => {
    tree
      .given([moved(b, a), moved(c, b)])
      .when({ type: "MoveFolder", folderId: a, ownerId, parentId: c, createdParents })
      .thenRefuses("conflict");
  });

  it("of two moves that together make a cycle, the one decided second is refused", () => {
    tree
      .given([])
      .when({ type: "MoveFolder", folderId: b, ownerId, parentId: a, createdParents })
      .then([moved(b, a)]);
    tree
      .given([moved(a, b)])
      .when({ type: "MoveFolder", folderId: b, ownerId, parentId: a, createdParents })
      .thenRefuses("conflict");
  });

  it("a parent it was not told of is refused as a conflict, to be decided again", () => {
    tree
      .given([])
      .when({ type: "MoveFolder", folderId: a, ownerId, parentId: b, createdParents: new Map([[a, null]]) })
      .thenRefuses("conflict");
  });
});
