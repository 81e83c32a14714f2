import { join } from "node:path";
import { SqliteReadStore } from "../../../shared/adapters/sqlite/sqlite.read-store.ts";
import { readStoreContract } from "../../contracts/read-store.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

readStoreContract("SQLite", async () => {
  const dir = await tempDir();
  const writer = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
  const reader = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
  const cleanup = async () => {
    await writer.close();
    await reader.close();
    await dir.remove();
  };
  return { writer, reader, cleanup };
});
