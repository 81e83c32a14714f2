import { join } from "node:path";
import { SqliteProjectionStore, SqliteReadStore } from "../../../shared/adapters/sqlite/sqlite.read-store.ts";
import { readStoreContract } from "../../contracts/read-store.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

readStoreContract("SQLite", async () => {
  const dir = await tempDir();
  const projection = new SqliteProjectionStore(join(dir.path, "read-models.sqlite"));
  const reader = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
  const cleanup = async () => {
    await projection.close();
    await reader.close();
    await dir.remove();
  };
  return { projection, reader, cleanup };
});
