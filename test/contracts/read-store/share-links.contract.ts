// Part of the read-store contract (read-store.contract.ts): share links, found by their secret's hash, listed
// newest first for their creator and their page or folder, changed, revoked and viewed.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { ShareLinkRecord } from "../../../shared/share-links/share-links.view.ts";
import { at, type ContractStores } from "./stores.ts";

function link(createdBy: string, entityId: string, overrides: Partial<ShareLinkRecord> = {}): ShareLinkRecord {
  const when = at();
  return {
    id: randomUUID(),
    entityType: "page",
    entityId,
    createdBy,
    createdAt: when.updatedAt,
    position: when.updatedPosition,
    secretHash: randomUUID().replace(/-/g, "").padEnd(64, "0"),
    expiresAt: null,
    passwordHash: null,
    allowIndexing: false,
    revokedAt: null,
    views: 0,
    lastViewedAt: null,
    ...overrides,
  };
}

export function shareLinkCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;

  it("finds a share link by its secret's hash and lists links newest first, per creator and per page or folder, from a cursor", async () => {
    const [ann, bob, page, folder] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const first = link(ann, page);
    const second = link(bob, page);
    const third = link(ann, folder, {
      entityType: "folder",
      passwordHash: "scrypt$16384$8$1$c2FsdA$a2V5",
      expiresAt: "2030-01-01T00:00:00.000Z",
    });
    await batch(async (tx) => {
      for (const entry of [first, second, third]) await w().shareLinks.put(tx, entry);
    });
    expect(await s.reader.shareLinks.findBySecretHash(third.secretHash)).toEqual(third);
    expect(await s.reader.shareLinks.findBySecretHash("f".repeat(64))).toBeNull();
    expect(await s.reader.shareLinks.get(first.id)).toEqual(first);
    expect((await s.reader.shareLinks.listForCreator(ann, null, 10)).map((entry) => entry.id)).toEqual([
      third.id,
      first.id,
    ]);
    expect((await s.reader.shareLinks.listForCreator(ann, third.position, 10)).map((entry) => entry.id)).toEqual([
      first.id,
    ]);
    expect((await s.reader.shareLinks.listForCreator(ann, null, 1)).map((entry) => entry.id)).toEqual([third.id]);
    expect((await s.reader.shareLinks.listForEntity("page", page, null, 10)).map((entry) => entry.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect(await s.reader.shareLinks.listForEntity("folder", page, null, 10)).toEqual([]);
  });

  it("changes a link's settings, adds views with lastViewedAt only moving forward, and keeps a revoked link with revokedAt", async () => {
    const entry = link(randomUUID(), randomUUID());
    await batch(async (tx) => w().shareLinks.put(tx, entry));
    await batch(async (tx) => {
      await w().shareLinks.change(tx, entry.id, {
        expiresAt: "2031-01-01T00:00:00.000Z",
        passwordHash: "scrypt$16384$8$1$c2FsdA$a2V5",
        allowIndexing: true,
      });
      await w().shareLinks.addViews(tx, entry.id, 3, "2026-05-02T00:00:00.000Z");
      await w().shareLinks.addViews(tx, entry.id, 2, "2026-05-01T00:00:00.000Z");
    });
    await batch(async (tx) => w().shareLinks.revoke(tx, entry.id, "2026-06-01T00:00:00.000Z"));
    expect(await s.reader.shareLinks.get(entry.id)).toEqual({
      ...entry,
      expiresAt: "2031-01-01T00:00:00.000Z",
      passwordHash: "scrypt$16384$8$1$c2FsdA$a2V5",
      allowIndexing: true,
      views: 5,
      lastViewedAt: "2026-05-02T00:00:00.000Z",
      revokedAt: "2026-06-01T00:00:00.000Z",
    });
  });
}
