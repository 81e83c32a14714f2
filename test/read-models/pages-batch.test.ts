// Changes held back within a projector batch land as the final state of each page, and vanish with a rollback.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PageRecord } from "../../shared/pages/pages.view.ts";
import { SqliteReadStore } from "../../shared/read-store/sqlite.read-store.ts";
import { tempDir } from "../support/temp-dir.ts";

let store: SqliteReadStore;
let reader: SqliteReadStore;
let remove: () => Promise<void>;
beforeEach(async () => {
  const dir = await tempDir();
  remove = dir.remove;
  store = new SqliteReadStore(join(dir.path, "read.sqlite"));
  reader = new SqliteReadStore(join(dir.path, "read.sqlite"));
});
afterEach(async () => {
  await store.close();
  await reader.close();
  await remove();
});

const page = (ownerId: string): PageRecord => ({
  id: randomUUID(),
  ownerId,
  parentId: null,
  title: "First",
  icon: null,
  ancestorIds: [],
  folderPath: "",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  updatedPosition: 1,
  revision: 0,
});
const at = (position: number) => ({ updatedAt: `2026-01-01T00:00:0${position}.000Z`, updatedPosition: position, revision: position - 1 });

describe("page changes within one batch", () => {
  it("keep every field's last value across renames, icon and content changes", async () => {
    const owner = randomUUID();
    const record = page(owner);
    await store.applyBatch(6, async () => {
      await store.pages.create(record, "v1");
      await store.pages.change(record.id, { kind: "title", title: "Second", ...at(2) });
      await store.pages.change(record.id, { kind: "icon", icon: "⭐", ...at(3) });
      await store.pages.change(record.id, { kind: "content", markdown: "v2", ...at(4) });
      expect((await store.pages.get(record.id))?.title).toBe("Second");
      await store.pages.change(record.id, { kind: "title", title: "Third", ...at(5) });
      await store.pages.change(record.id, { kind: "content", markdown: "v3", ...at(6) });
    });
    const content = await reader.pages.getContent(record.id);
    expect(content?.page).toMatchObject({ title: "Third", icon: "⭐", updatedPosition: 6, revision: 5, updatedAt: at(6).updatedAt });
    expect(content?.markdown).toBe("v3");
    expect((await reader.pages.findByTitleKey("third", 10)).map((p) => p.id)).toEqual([record.id]);
    expect(await reader.pages.findByTitleKey("second", 10)).toEqual([]);
    expect(await reader.checkpoint()).toBe(6);
  });

  it("forget held-back changes when the batch fails", async () => {
    const record = page(randomUUID());
    await store.applyBatch(1, async () => store.pages.create(record, "v1"));
    await expect(
      store.applyBatch(2, async () => {
        await store.pages.change(record.id, { kind: "title", title: "Lost", ...at(2) });
        throw new Error("projection failed");
      }),
    ).rejects.toThrow("projection failed");
    await store.applyBatch(3, async () => store.pages.change(record.id, { kind: "icon", icon: "✅", ...at(3) }));
    expect(await reader.pages.get(record.id)).toMatchObject({ title: "First", icon: "✅" });
    expect(await reader.checkpoint()).toBe(3);
  });
});
