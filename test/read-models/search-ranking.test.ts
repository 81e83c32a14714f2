// The order of search results as the guide states it (pages whose title holds every term first, then by BM25
// with a title match weighing ten times a body match, then a fixed order), and the same order once the read
// models are rebuilt and the index merged, or the file opened again by another process.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { parseSearch } from "../../shared/pages/page-search.ts";
import type { PageRecord } from "../../shared/pages/page-record.ts";
import { tempDir } from "../support/temp-dir.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const owner = randomUUID();
const page = (title: string, position: number): PageRecord => ({
  id: randomUUID(),
  ownerId: owner,
  parentId: null,
  title,
  icon: null,
  ancestorIds: [],
  folderPath: "",
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
  updatedPosition: position,
  revision: 0,
});

// One word only; one in the title and the other in a longer body; both in the title; both in a short body alone
// (first, were a title match weighed as a body match); and pages without either, so that the words are rare
// enough for BM25 to weigh them.
const pages: Array<{ record: PageRecord; markdown: string }> = [
  { record: page("Quillwort overview", 1), markdown: "A short note on marshes." },
  { record: page("Tamarisk field notes", 2), markdown: "The quillwort grows here. The rest is about marshes." },
  { record: page("Quillwort and tamarisk", 3), markdown: "Nothing else." },
  { record: page("Survey", 4), markdown: "quillwort tamarisk" },
  ...Array.from({ length: 12 }, (_, i) => ({ record: page(`Other ${i}`, 5 + i), markdown: "Marshes and reeds." })),
];
const query = {
  terms: parseSearch("quillwort tamarisk"),
  visibleTo: { ownerIds: [owner], pageIds: [], folderIds: [] },
  offset: 0,
  limit: 10,
};
const expected = [pages[2], pages[1], pages[3]].map((entry) => entry?.record.id);

async function write(projection: SqliteProjectionStore): Promise<void> {
  for (const { record, markdown } of pages)
    await projection.applyBatch(record.updatedPosition, (tx) => projection.writers.pages.put(tx, record, markdown));
}

describe("the order of search results", () => {
  it("puts the title holding every term first, then weighs a title match ten times a body match, also after a rebuild", async () => {
    const dir = await tempDir();
    const file = join(dir.path, "read-models.sqlite");
    const projection = new SqliteProjectionStore(file);
    cleanups.push(async () => dir.remove());
    await write(projection);
    const ranked = async () => {
      const reader = new SqliteReadStore(file);
      try {
        return (await reader.pages.search(query)).map((hit) => hit.page.id);
      } finally {
        await reader.close();
      }
    };
    expect(await ranked()).toEqual(expected);

    await projection.beginRebuild();
    await write(projection);
    await projection.endRebuild();
    expect(await ranked()).toEqual(expected);
    await projection.close();

    const reopened = new SqliteProjectionStore(file);
    await reopened.close();
    expect(await ranked()).toEqual(expected);
  });
});
