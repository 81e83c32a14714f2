// The search index is merged into one segment once the projector is idle, and answers as before.
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { parseSearch } from "../../shared/pages/page-search.ts";
import type { PageRecord } from "../../shared/pages/page-record.ts";
import { tempDir } from "../support/temp-dir.ts";

/**
 * Segments in the FTS5 index: the structure record (rowid 10) is a 4-byte cookie, with contentless_delete a
 * 4-byte version marker (FF 00 00 01), then the varints nLevel and nSegment.
 */
function segments(db: Database.Database): number {
  const blob = db.prepare<[], Buffer>("SELECT block FROM page_search_data WHERE id = 10").pluck().get();
  if (!blob) return 0;
  let offset = blob.readUInt32BE(4) === 0xff000001 ? 8 : 4;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = blob[offset++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  varint();
  return varint();
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("merging the search index when the projector is idle", () => {
  it("ends with one segment after many small batches, and search finds the same pages", async () => {
    const dir = await tempDir();
    const file = join(dir.path, "read-models.sqlite");
    const projection = new SqliteProjectionStore(file);
    const reader = new SqliteReadStore(file);
    const inspect = new Database(file, { readonly: true });
    cleanups.push(async () => {
      inspect.close();
      await reader.close();
      await projection.close();
      await dir.remove();
    });
    const owner = randomUUID();
    let position = 0;
    for (let batch = 0; batch < 20; batch += 1) {
      position += 1;
      const page: PageRecord = {
        id: randomUUID(),
        ownerId: owner,
        parentId: null,
        title: `Note ${batch}`,
        icon: null,
        ancestorIds: [],
        folderPath: "",
        createdAt: new Date(0).toISOString(),
        updatedAt: new Date(0).toISOString(),
        updatedPosition: position,
        revision: 0,
      };
      await projection.applyBatch(position, (tx) =>
        projection.writers.pages.put(tx, page, `zeppelin rollout number ${batch}`),
      );
    }
    const query = {
      terms: parseSearch("zeppelin"),
      visibleTo: { ownerIds: [owner], pageIds: [], folderIds: [] },
      offset: 0,
      limit: 50,
    };
    const before = (await reader.pages.search(query)).map((hit) => hit.page.id).sort();
    expect(before).toHaveLength(20);

    const deadline = Date.now() + 30_000;
    while (segments(inspect) > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(segments(inspect)).toBe(1);
    expect((await reader.pages.search(query)).map((hit) => hit.page.id).sort()).toEqual(before);
  });
});
