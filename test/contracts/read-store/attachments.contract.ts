// Part of the read-store contract (read-store.contract.ts). Attachments: listed newest first per page and paged,
// a deleted one kept (for the purge) but not listed, a purged page's records gone, and the bytes a page holds summed
// for its purge.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { AttachmentRecord } from "../../../shared/attachments/attachments.view.ts";
import { at, type ContractStores } from "./stores.ts";

function attachmentOf(pageId: string): AttachmentRecord {
  const when = at();
  return {
    id: randomUUID(),
    pageId,
    uploaderId: randomUUID(),
    filename: "a.pdf",
    originalName: "a.pdf",
    mimeType: "application/pdf",
    size: 10,
    sha256: "c".repeat(64),
    createdAt: when.updatedAt,
    position: when.updatedPosition,
    deletedAt: null,
  };
}

export function attachmentCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  it("lists a page's live attachments newest first, paged by (position, id), keeps deleted ones for the purge and forgets a purged page's", async () => {
    const [pageId, otherPage] = [randomUUID(), randomUUID()];
    const [first, second, third] = [attachmentOf(pageId), attachmentOf(pageId), attachmentOf(pageId)];
    const other = attachmentOf(otherPage);
    // Two uploads at one position: the id breaks the tie.
    const twin = { ...attachmentOf(pageId), position: third.position };
    await batch(async (tx) => {
      for (const attachment of [first, second, third, twin, other]) await w().attachments.put(tx, attachment);
    });
    const newestFirst = [third, twin].sort((a, b) => (a.id < b.id ? 1 : -1)).concat([second, first]);
    const page1 = await s.reader.attachments.list({ pageId, before: null, limit: 2 });
    expect(page1.map((row) => row.id)).toEqual(newestFirst.slice(0, 3).map((row) => row.id));
    const last = page1[1];
    const page2 = await s.reader.attachments.list({
      pageId,
      before: last ? { position: last.position, id: last.id } : null,
      limit: 2,
    });
    expect(page2.map((row) => row.id)).toEqual(newestFirst.slice(2).map((row) => row.id));
    expect(await s.reader.attachments.get(first.id)).toEqual(first);

    const deletedAt = at().updatedAt;
    await batch(async (tx) => w().attachments.markDeleted(tx, second.id, deletedAt));
    expect((await s.reader.attachments.list({ pageId, before: null, limit: 10 })).map((row) => row.id)).not.toContain(
      second.id,
    );
    expect(await s.reader.attachments.get(second.id)).toEqual({ ...second, deletedAt });
    const all = await s.reader.attachments.allOfPage(pageId, null, 2);
    const rest = await s.reader.attachments.allOfPage(pageId, all.at(-1)?.id ?? null, 10);
    expect([...all, ...rest].map((row) => row.id).sort()).toEqual(
      [first, second, third, twin].map((row) => row.id).sort(),
    );

    await batch(async (tx) => w().attachments.removePage(tx, pageId));
    expect(await s.reader.attachments.get(first.id)).toBeNull();
    expect(await s.reader.attachments.allOfPage(pageId, null, 10)).toEqual([]);
    expect(await s.reader.attachments.get(other.id)).toEqual(other);
  });

  it("sums the attachment bytes of one page, deleted ones too, for the purge that takes them off its owner's total", async () => {
    const [pageId, other] = [randomUUID(), randomUUID()];
    const sized = (onPage: string, size: number) => ({ ...attachmentOf(onPage), size });
    const removed = sized(pageId, 3);
    await batch(async (tx) => {
      for (const attachment of [sized(pageId, 100), removed, sized(other, 50000)])
        await w().attachments.put(tx, attachment);
      await w().attachments.markDeleted(tx, removed.id, at().updatedAt);
      expect(await w().attachments.bytesOfPage(tx, pageId)).toBe(103);
    });
    await batch(async (tx) => {
      await w().attachments.removePage(tx, pageId);
      expect(await w().attachments.bytesOfPage(tx, pageId)).toBe(0);
      expect(await w().attachments.bytesOfPage(tx, other)).toBe(50000);
    });
  });
}
