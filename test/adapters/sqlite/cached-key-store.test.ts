// The key cache in front of the SQLite key store: bounded in count and time, and a destroyed key is gone at once
// in the process that destroyed it.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteKeyStore } from "../../../shared/adapters/sqlite/sqlite.key-store.ts";
import { CachedKeyStore } from "../../../shared/erasure/cached-key-store.ts";
import { KeyEncryptionKey } from "../../../shared/erasure/key-encryption-key.ts";
import type { KeyStore } from "../../../shared/erasure/key-store.port.ts";
import { randomUUID } from "node:crypto";
import { SqliteEventStore } from "../../../shared/adapters/sqlite/sqlite.event-store.ts";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { SealingEventStore } from "../../../shared/erasure/sealing-event-store.ts";
import type { DomainEvent } from "../../../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { tempDir } from "../../support/temp-dir.ts";

const kek = new KeyEncryptionKey("k".repeat(40));
let cleanup: () => Promise<void> = async () => undefined;
afterEach(async () => cleanup());

/** The real store, counting the reads that reach it. */
async function countedStore(): Promise<{ store: KeyStore; reads: () => number; second: SqliteKeyStore }> {
  const dir = await tempDir();
  const file = join(dir.path, "keys.sqlite");
  const inner = new SqliteKeyStore(file, kek);
  const second = new SqliteKeyStore(file, kek);
  let reads = 0;
  const store: KeyStore = {
    activeKey: (subject) => ((reads += 1), inner.activeKey(subject)),
    key: (subject, keyId) => ((reads += 1), inner.key(subject, keyId)),
    keysOf: (wanted) => ((reads += 1), inner.keysOf(wanted)),
    destroy: (subject) => inner.destroy(subject),
    storeId: () => inner.storeId(),
    close: () => inner.close(),
  };
  cleanup = async () => {
    await inner.close();
    await second.close();
    await dir.remove();
  };
  return { store, reads: () => reads, second };
}

describe("the key cache", () => {
  it("reads a key from the store once while it is fresh, and again once its time is up", async () => {
    let now = 0;
    const { store, reads } = await countedStore();
    const cache = new CachedKeyStore(store, { maxEntries: 10, ttlMs: 1_000, now: () => now });
    const key = await cache.activeKey("user:ann");
    for (let i = 0; i < 5; i += 1) expect(await cache.key("user:ann", key.keyId)).toEqual(key);
    expect(reads()).toBe(1);
    now = 1_001;
    await cache.key("user:ann", key.keyId);
    expect(reads()).toBe(2);
  });

  it("holds at most maxEntries keys", async () => {
    const { store } = await countedStore();
    const cache = new CachedKeyStore(store, { maxEntries: 8, ttlMs: 60_000 });
    for (let i = 0; i < 50; i += 1) await cache.activeKey(`user:u${i}`);
    expect(cache.size).toBeLessThanOrEqual(8);
  });

  it("answers a key it destroyed as missing at once, and a key destroyed by another process once its time is up", async () => {
    let now = 0;
    const { store, second } = await countedStore();
    const cache = new CachedKeyStore(store, { maxEntries: 10, ttlMs: 1_000, now: () => now });
    const ann = await cache.activeKey("user:ann");
    await cache.destroy("user:ann");
    expect(await cache.key("user:ann", ann.keyId)).toBeNull();
    const bob = await cache.activeKey("user:bob");
    await second.destroy("user:bob");
    now = 1_001;
    expect(await cache.key("user:bob", bob.keyId)).toBeNull();
  });

  it("opens a replayed batch of many subjects' events with one read of the store, and the next batch from the cache", async () => {
    const { store, reads } = await countedStore();
    const dir = await tempDir();
    const log = new SqliteEventStore(join(dir.path, "events.sqlite"));
    const writer = new SealingEventStore(log, new CachedKeyStore(store, { maxEntries: 100, ttlMs: 60_000 }), kek);
    const ownerId = userIdSchema.parse(randomUUID());
    const context = { actorId: ownerId, correlationId: "test", now: new Date("2026-11-01T10:00:00Z") };
    for (let i = 0; i < 20; i += 1) {
      const pageId = pageIdSchema.parse(randomUUID());
      const created: DomainEvent = {
        type: "PageCreated",
        data: { pageId, ownerId, parentId: null, title: `Plan ${i}`, icon: null, markdown: `Body ${i}` },
      };
      await writer.append(`page-${pageId}`, toNewEvents([created], context), "no_stream");
    }
    const before = reads();
    const reader = new SealingEventStore(log, new CachedKeyStore(store, { maxEntries: 100, ttlMs: 60_000 }), kek);
    const first = await reader.readAll(0, 20);
    expect(first.map((event) => (event.data as { title: string }).title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Plan ${i}`),
    );
    expect(reads() - before).toBe(1);
    await reader.readAll(0, 20);
    expect(reads() - before).toBe(1);
    await log.close();
    await dir.remove();
  });
});
