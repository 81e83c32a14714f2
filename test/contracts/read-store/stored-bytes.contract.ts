// Part of the read-store contract (read-store.contract.ts). Stored bytes per workspace owner: the running total
// the quota reads, kept by the projections from the events themselves (uploads, a deleted attachment, the trash,
// a purge, an erasure's purges), counted once when a batch is applied again, and the same after a rebuild.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { project } from "../../../services/projector/projections/project.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import { HistoryFolds } from "../../../shared/history/history-folds.ts";
import { at, recordedBy, type ContractStores } from "./stores.ts";

const SHA = "b".repeat(64);

/** Events as the log would hold them: validated by their schema, each at the next position. */
function recorded(actorId: string, events: readonly unknown[]): StoredEvent[] {
  return events.map((raw) => recordedBy(actorId, raw));
}

const created = (pageId: string, ownerId: string) => ({
  type: "PageCreated",
  data: { pageId, ownerId, parentId: null, title: "Files", icon: null, markdown: "" },
});
const image = (pageId: string, uploaderId: string, size: number) => {
  const imageId = randomUUID();
  return {
    type: "ImageUploaded",
    data: {
      imageId,
      pageId,
      uploaderId,
      filename: `${imageId}.png`,
      originalName: "a.png",
      mimeType: "image/png",
      size,
      width: 1,
      height: 1,
      alt: "",
      sha256: SHA,
    },
  };
};
const attachment = (pageId: string, uploaderId: string, size: number, attachmentId: string = randomUUID()) => ({
  type: "AttachmentUploaded",
  data: {
    attachmentId,
    pageId,
    uploaderId,
    filename: "a.pdf",
    originalName: "a.pdf",
    mimeType: "application/pdf",
    size,
    sha256: SHA,
  },
});
const replaced = (pageId: string, uploaderId: string, size: number, attachmentId: string) => ({
  ...attachment(pageId, uploaderId, size, attachmentId),
  type: "AttachmentReplaced",
});
const attachmentDeleted = (pageId: string, attachmentId: string) => ({
  type: "AttachmentDeleted",
  data: { attachmentId, pageId, filename: "a.pdf" },
});
const deleted = (pageId: string, ownerId: string) => ({
  type: "PageDeleted",
  data: { pageId, ownerId, parentId: null, title: "Files" },
});
const undeleted = (pageId: string, ownerId: string) => ({
  type: "PageUndeleted",
  data: { pageId, ownerId, parentId: null, title: "Files", icon: null, markdown: "", createdAt: at().updatedAt },
});
const purged = (pageId: string) => ({ type: "PagePurged", data: { pageId } });

export function storedBytesCases<Tx>(s: ContractStores<Tx>): void {
  /** Projects the events in one batch, as the projector does. */
  const apply = (events: readonly StoredEvent[]) =>
    s.projection.applyBatch(events.at(-1)?.position ?? 0, async (tx) => {
      const folds = new HistoryFolds(s.projection.writers.history, tx);
      for (const event of events) await project(event, s.projection.writers, tx, folds);
      await folds.flush();
    });
  const total = (ownerId: string) => s.reader.storedBytes.ofOwner(ownerId);

  it("keeps an owner's stored bytes through uploads, a deleted attachment, the trash and a restore, and frees them on a purge and an erasure", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const [kept, trashed, erased, bobs] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const removed = randomUUID();
    expect(await total(ann)).toBe(0);
    await apply(
      recorded(ann, [
        created(kept, ann),
        created(trashed, ann),
        created(erased, ann),
        image(kept, ann, 100),
        attachment(kept, ann, 20),
        attachment(kept, ann, 3, removed),
        image(trashed, ann, 4000),
        attachment(erased, ann, 500),
      ]),
    );
    await apply(recorded(bob, [created(bobs, bob), image(bobs, bob, 50000), attachment(bobs, ann, 7)]));
    expect(await total(ann)).toBe(4623);
    // Another owner's pages are theirs, whoever uploaded to them.
    expect(await total(bob)).toBe(50007);

    // A deleted attachment and a page in the trash keep their bytes until the purge; a restore changes nothing.
    await apply(recorded(ann, [attachmentDeleted(kept, removed), deleted(trashed, ann)]));
    expect(await total(ann)).toBe(4623);
    await apply(recorded(ann, [undeleted(trashed, ann), image(trashed, ann, 1)]));
    expect(await total(ann)).toBe(4624);
    await apply(recorded(ann, [deleted(trashed, ann)]));
    expect(await total(ann)).toBe(4624);

    // Purged from the trash: its files go from the total.
    await apply(recorded(ann, [purged(trashed)]));
    expect(await total(ann)).toBe(623);
    // Erased (an erasure deletes and purges at once): the same.
    await apply(recorded(ann, [deleted(erased, ann), purged(erased)]));
    expect(await total(ann)).toBe(123);
    expect(await total(bob)).toBe(50007);
  });

  it("moves the total by the difference when an attachment's bytes are replaced, and frees the new size on a purge", async () => {
    const ann = randomUUID();
    const [pageId, attachmentId] = [randomUUID(), randomUUID()];
    await apply(recorded(ann, [created(pageId, ann), attachment(pageId, ann, 300, attachmentId)]));
    expect(await total(ann)).toBe(300);
    await apply(recorded(ann, [replaced(pageId, ann, 1000, attachmentId)]));
    expect(await total(ann)).toBe(1000);
    // Replaced again in one batch with its upload's successor: each step sees the size before it.
    await apply(recorded(ann, [replaced(pageId, ann, 10, attachmentId), replaced(pageId, ann, 40, attachmentId)]));
    expect(await total(ann)).toBe(40);
    await apply(recorded(ann, [deleted(pageId, ann), purged(pageId)]));
    expect(await total(ann)).toBe(0);
  });

  it("counts a file uploaded and its page purged in the same batch, and nothing for a file recorded after its page's purge", async () => {
    const ann = randomUUID();
    const [pageId, late] = [randomUUID(), randomUUID()];
    await apply(
      recorded(ann, [
        created(pageId, ann),
        created(late, ann),
        image(pageId, ann, 40),
        attachment(late, ann, 5),
        deleted(late, ann),
        purged(late),
      ]),
    );
    expect(await total(ann)).toBe(40);
    await apply(recorded(ann, [attachment(late, ann, 9000)]));
    expect(await total(ann)).toBe(40);
  });

  it("counts each event once: a batch applied again (as after a crash with no transaction) adds and frees nothing twice", async () => {
    const ann = randomUUID();
    const [pageId, gone] = [randomUUID(), randomUUID()];
    const first = recorded(ann, [
      created(pageId, ann),
      created(gone, ann),
      image(pageId, ann, 300),
      attachment(gone, ann, 11),
    ]);
    await apply(first);
    await apply(first);
    expect(await total(ann)).toBe(311);
    const purge = recorded(ann, [deleted(gone, ann), purged(gone)]);
    await apply(purge);
    await apply(purge);
    expect(await total(ann)).toBe(300);
  });

  it("gives the same totals when the read models are rebuilt from the same history", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const [first, second, bobs] = [randomUUID(), randomUUID(), randomUUID()];
    const history = recorded(ann, [
      created(first, ann),
      created(second, ann),
      created(bobs, bob),
      image(first, ann, 1000),
      attachment(second, ann, 250),
      attachment(bobs, bob, 60),
      deleted(second, ann),
      image(first, ann, 5),
      undeleted(second, ann),
      deleted(first, ann),
      purged(first),
    ]);
    // Live: in batches of three.
    for (let from = 0; from < history.length; from += 3) await apply(history.slice(from, from + 3));
    const live = [await total(ann), await total(bob)];
    expect(live).toEqual([250, 60]);
    // Rebuilt: in one batch, from an emptied store.
    await s.projection.beginRebuild();
    expect(await total(ann)).toBe(0);
    await apply(history);
    await s.projection.endRebuild();
    expect([await total(ann), await total(bob)]).toEqual(live);
  });
}
