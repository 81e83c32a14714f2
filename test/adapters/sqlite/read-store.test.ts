// The read-store contract on SQLite files; a newer release's layout is the file's user_version one higher.
import { join } from "node:path";
import Database from "better-sqlite3";
import { SqliteProjectionStore, SqliteReadStore } from "../../../shared/adapters/sqlite/sqlite.read-store.ts";
import { readStoreContract } from "../../contracts/read-store.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

readStoreContract("SQLite", async () => {
  const dir = await tempDir();
  const projection = new SqliteProjectionStore(join(dir.path, "read-models.sqlite"));
  const reader = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
  const file = join(dir.path, "read-models.sqlite");
  const reopened: SqliteProjectionStore[] = [];
  const cleanup = async () => {
    for (const store of reopened) await store.close();
    await projection.close();
    await reader.close();
    await dir.remove();
  };
  const newerRelease = {
    async layOut() {
      const db = new Database(file);
      db.pragma(`user_version = ${Number(db.pragma("user_version", { simple: true })) + 1}`);
      db.close();
    },
    async openProjection() {
      const store = new SqliteProjectionStore(file);
      reopened.push(store);
      return store;
    },
  };
  return { projection, reader, cleanup, newerRelease };
});
