import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SqliteKeyStore } from "../../../shared/adapters/sqlite/sqlite.key-store.ts";
import { KeyEncryptionKey } from "../../../shared/erasure/key-encryption-key.ts";
import { keyStoreContract } from "../../contracts/key-store.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

keyStoreContract("SQLite", async () => {
  const dir = await tempDir();
  const file = join(dir.path, "keys.sqlite");
  return { open: async (kek) => new SqliteKeyStore(file, kek), cleanup: dir.remove };
});

describe("SQLite key store files", () => {
  it("hold no byte of a destroyed key's wrapped form, in the database or its WAL", async () => {
    const dir = await tempDir();
    try {
      const kek = new KeyEncryptionKey("k".repeat(40));
      const file = join(dir.path, "keys.sqlite");
      const store = new SqliteKeyStore(file, kek);
      const reader = new SqliteKeyStore(file, kek);
      const key = await store.activeKey("user:ann");
      await store.activeKey("user:bob");
      // The wrapped bytes as stored: found in the files before the destruction.
      const peek = new Database(file, { readonly: true });
      const wrapped = z
        .object({ wrapped: z.instanceof(Buffer) })
        .parse(peek.prepare("SELECT wrapped FROM data_keys WHERE subject = ?").get("user:ann")).wrapped;
      peek.close();
      expect(wrapped).toBeInstanceOf(Buffer);
      const files = () => readdirSync(dir.path).map((name) => readFileSync(join(dir.path, name)));
      const holds = (needle: Buffer) => files().some((bytes) => bytes.includes(needle));
      expect(holds(wrapped)).toBe(true);
      expect(holds(key.material)).toBe(false);
      await store.destroy("user:ann");
      expect(await reader.key("user:ann", key.keyId)).toBeNull();
      expect(holds(wrapped)).toBe(false);
      await reader.close();
      await store.close();
    } finally {
      await dir.remove();
    }
  });

  it("made before tombstones existed, reads a key it does not hold as erased, as it always did; a new store refuses it", async () => {
    const dir = await tempDir();
    try {
      const kek = new KeyEncryptionKey("k".repeat(40));
      const file = join(dir.path, "keys.sqlite");
      const made = new SqliteKeyStore(file, kek);
      const ann = await made.activeKey("user:ann");
      await made.close();
      await expect(new SqliteKeyStore(file, kek).key("user:gone", "k1")).rejects.toThrow(/older than the log/);
      // A file of the schema before: no rules table, so no rule that a missing key is an error.
      const raw = new Database(file);
      raw.exec("DROP TABLE key_store_rules");
      raw.close();
      const old = new SqliteKeyStore(file, kek);
      expect(await old.key("user:gone", "k1")).toBeNull();
      expect(await old.key("user:ann", ann.keyId)).toEqual(ann);
      await old.close();
    } finally {
      await dir.remove();
    }
  });
});
