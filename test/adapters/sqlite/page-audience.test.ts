// The SQLite page listing after a rebuild that stopped before its end: the next projection store to open the file
// fills the listing from the grants, so the pages granted during the interrupted replay are listed.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { expect, it } from "vitest";
import { SqliteProjectionStore, SqliteReadStore } from "../../../shared/adapters/sqlite/sqlite.read-store.ts";
import { tempDir } from "../../support/temp-dir.ts";

it("fills the listing when a projection store opens a file whose rebuild stopped before its end", async () => {
  const dir = await tempDir();
  const file = join(dir.path, "read-models.sqlite");
  const [owner, ann, folderId, pageId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const when = { updatedAt: "2026-01-01T00:00:01.000Z", updatedPosition: 1 };
  const first = new SqliteProjectionStore(file);
  await first.beginRebuild();
  await first.applyBatch(1, async (tx) => {
    await first.writers.folders.put(tx, {
      id: folderId,
      ownerId: owner,
      parentId: null,
      name: "Shared",
      icon: null,
      ancestorIds: [],
      path: "Shared",
      createdAt: when.updatedAt,
      ...when,
    });
    await first.writers.pages.put(
      tx,
      {
        id: pageId,
        ownerId: owner,
        parentId: folderId,
        title: "Inside",
        icon: null,
        ancestorIds: [folderId],
        folderPath: "Shared",
        createdAt: when.updatedAt,
        revision: 0,
        ...when,
      },
      "",
    );
    await first.writers.access.putGrant(
      tx,
      {
        entityType: "folder",
        entityId: folderId,
        userId: ann,
        permission: "view",
        grantedBy: owner,
        createdAt: when.updatedAt,
        updatedAt: when.updatedAt,
      },
      1,
    );
  });
  await first.close();
  const second = new SqliteProjectionStore(file);
  const reader = new SqliteReadStore(file);
  try {
    const visibleTo = { ownerIds: [ann], pageIds: [], folderIds: [folderId] };
    const listed = await reader.pages.list({ visibleTo, before: null, limit: 10, parentId: null, listedFor: ann });
    expect(listed.map((page) => page.id)).toEqual([pageId]);
  } finally {
    await reader.close();
    await second.close();
    await dir.remove();
  }
});
