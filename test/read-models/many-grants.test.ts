// A caller with more grants than one compound query may hold still gets a correct list.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PageRecord } from "../../shared/pages/page-record.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { tempDir } from "../support/temp-dir.ts";

let store: SqliteReadStore;
let projection: SqliteProjectionStore;
let remove: () => Promise<void>;
beforeEach(async () => {
  const dir = await tempDir();
  remove = dir.remove;
  projection = new SqliteProjectionStore(join(dir.path, "read.sqlite"));
  store = new SqliteReadStore(join(dir.path, "read.sqlite"));
});
afterEach(async () => {
  await store.close();
  await projection.close();
  await remove();
});

describe("lists for a caller with hundreds of grants", () => {
  it("returns the same pages whether the sources are read in one statement or one by one", async () => {
    const owner = randomUUID();
    const pages: PageRecord[] = Array.from({ length: 5 }, (_, i) => ({
      id: randomUUID(),
      ownerId: owner,
      parentId: null,
      title: `p${i}`,
      icon: null,
      ancestorIds: [],
      folderPath: "",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      updatedPosition: i + 1,
      revision: 0,
    }));
    await projection.applyBatch(5, async (tx) => {
      for (const page of pages) await projection.writers.pages.put(tx, page, "");
    });
    const expected = pages.map((p) => p.id).reverse();
    for (const grants of [10, 450]) {
      const visibleTo = {
        ownerIds: [owner],
        pageIds: [],
        folderIds: Array.from({ length: grants }, () => randomUUID()),
      };
      const rows = await store.pages.list({ visibleTo, before: null, limit: 3, parentId: null });
      expect(
        rows.map((r) => r.id),
        `${grants} grants`,
      ).toEqual(expected.slice(0, 4));
      // The caller's own listing (empty here) beside as many workspaces: one merged statement, or one by one.
      const listed = await store.pages.list({
        visibleTo: { ...visibleTo, ownerIds: [...visibleTo.folderIds, owner] },
        before: null,
        limit: 3,
        parentId: null,
        listedFor: randomUUID(),
      });
      expect(
        listed.map((r) => r.id),
        `${grants} workspaces`,
      ).toEqual(expected.slice(0, 4));
    }
  });
});
