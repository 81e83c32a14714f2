// The key store's contract: what every adapter (SQLite, MongoDB) must do the same way. `open(kek)` opens the
// same store again (another process), with the key-encryption key given.
import { afterEach, describe, expect, it } from "vitest";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { KeyStoreError, type KeyStore } from "../../shared/erasure/key-store.port.ts";

export type KeyStoreFactory = () => Promise<{
  open: (kek: KeyEncryptionKey) => Promise<KeyStore>;
  cleanup: () => Promise<void>;
}>;

const KEK = new KeyEncryptionKey("k".repeat(40));

export function keyStoreContract(name: string, factory: KeyStoreFactory): void {
  describe(`${name} key store`, () => {
    const opened: KeyStore[] = [];
    let cleanup: () => Promise<void> = async () => undefined;
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await cleanup();
    });
    const setUp = async () => {
      const made = await factory();
      cleanup = made.cleanup;
      const open = async (kek: KeyEncryptionKey = KEK) => {
        const store = await made.open(kek);
        opened.push(store);
        return store;
      };
      return { open };
    };

    it("gives a subject one 32-byte key, the same on every call and from every connection", async () => {
      const { open } = await setUp();
      const store = await open();
      const first = await store.activeKey("user:ann");
      expect(first.material).toHaveLength(32);
      expect(await store.activeKey("user:ann")).toEqual(first);
      expect(await (await open()).activeKey("user:ann")).toEqual(first);
      expect(await store.key("user:ann", first.keyId)).toEqual(first);
      expect((await store.activeKey("user:bob")).material.equals(first.material)).toBe(false);
    });

    it("agrees on one key when two connections create a subject's key at once", async () => {
      const { open } = await setUp();
      const [one, two] = [await open(), await open()];
      const keys = await Promise.all([
        one.activeKey("user:race"),
        two.activeKey("user:race"),
        one.activeKey("user:race"),
      ]);
      expect(new Set(keys.map((key) => key.keyId)).size).toBe(1);
    });

    it("refuses a key it never held with an error naming an older store, never reading it as erased", async () => {
      const { open } = await setUp();
      const store = await open();
      await store.activeKey("user:ann");
      await expect(store.key("user:ann", "not-a-key")).rejects.toThrow(KeyStoreError);
      await expect(store.key("user:nobody", "not-a-key")).rejects.toThrow(/older than the log/);
    });

    it("destroys a subject's key for every connection, leaves other subjects alone, and makes a new key after", async () => {
      const { open } = await setUp();
      const store = await open();
      const ann = await store.activeKey("user:ann");
      const bob = await store.activeKey("user:bob");
      await store.destroy("user:ann");
      await store.destroy("user:ann");
      expect(await store.key("user:ann", ann.keyId)).toBeNull();
      expect(await (await open()).key("user:ann", ann.keyId)).toBeNull();
      expect(await store.key("user:bob", bob.keyId)).toEqual(bob);
      const again = await store.activeKey("user:ann");
      expect(again.keyId).not.toBe(ann.keyId);
      expect(again.material.equals(ann.material)).toBe(false);
      // The first key stays destroyed, the new one is at hand, and a third destruction leaves both erased.
      expect(await store.key("user:ann", ann.keyId)).toBeNull();
      expect(await store.key("user:ann", again.keyId)).toEqual(again);
      await store.destroy("user:ann");
      expect(await (await open()).key("user:ann", again.keyId)).toBeNull();
      expect(await store.key("user:ann", ann.keyId)).toBeNull();
    });

    it("answers many keys at once as it answers each alone: current, destroyed, never held", async () => {
      const { open } = await setUp();
      const store = await open();
      if (!store.keysOf) return;
      const ann = await store.activeKey("user:ann");
      const bob = await store.activeKey("user:bob");
      const cal = await store.activeKey("user:cal");
      await store.destroy("user:cal");
      const reader = await open();
      expect(await reader.keysOf?.([ann, bob, ann, cal].map(({ subject, keyId }) => ({ subject, keyId })))).toEqual([
        ann,
        bob,
        ann,
        null,
      ]);
      await expect(reader.keysOf?.([{ subject: "user:ann", keyId: "not-a-key" }])).rejects.toThrow(KeyStoreError);
      expect(await reader.keysOf?.([])).toEqual([]);
    });

    it("keeps its id across connections", async () => {
      const { open } = await setUp();
      const id = await (await open()).storeId();
      expect(id).toMatch(/\S{8,}/);
      expect(await (await open()).storeId()).toBe(id);
    });

    it("refuses to open with another key-encryption key, naming ERASURE_KEK, rather than answer garbage", async () => {
      const { open } = await setUp();
      await (await open()).activeKey("user:ann");
      const wrong = new KeyEncryptionKey("w".repeat(40));
      await expect(open(wrong)).rejects.toThrow(KeyStoreError);
      await expect(open(wrong)).rejects.toThrow(/ERASURE_KEK/);
    });

    it("refuses a subject that is not a short printable name", async () => {
      const { open } = await setUp();
      const store = await open();
      await expect(store.activeKey("user:a.b")).rejects.toThrow(KeyStoreError);
      await expect(store.activeKey("no-kind")).rejects.toThrow(KeyStoreError);
    });
  });
}
