// A server whose key store is lost, or whose key-encryption key is not the one its keys were wrapped with,
// refuses to start with a message that says what to restore, instead of reading every user as erased.
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAllInOne } from "../../services/all-in-one.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { KEK_FILE } from "../../shared/erasure/key-encryption-key.ts";
import { KeyStoreError } from "../../shared/erasure/key-store.port.ts";
import { TEST_SESSION_SECRET, TestServer } from "../support/server.ts";
import { tempDir } from "../support/temp-dir.ts";

const dirs: Array<{ remove: () => Promise<void> }> = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await dir.remove();
});

async function serverWithAUser(settings: Record<string, string> = {}): Promise<{ dataDir: string }> {
  const dir = await tempDir();
  dirs.push(dir);
  const server = await TestServer.start({ dataDir: dir.path, settings });
  await server.registered("ann");
  await server.internals.close();
  return { dataDir: dir.path };
}

const start = (dataDir: string, settings: Record<string, string> = {}) =>
  startAllInOne(
    loadConfig({
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "silent",
      AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
      ...settings,
    }),
  );

// These lose and swap the embedded key store's files; the production stack keeps its keys in MongoDB.
describe.skipIf(process.env.WORKSPACE_TEST_STACK === "production")("the key store at start", () => {
  it("a lost key store stops the server with an error that says to restore it", async () => {
    const { dataDir } = await serverWithAUser();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(dataDir, `keys.sqlite${suffix}`), { force: true });
    await expect(start(dataDir)).rejects.toThrow(KeyStoreError);
    await expect(start(dataDir)).rejects.toThrow(/keys\.sqlite is missing .* restore it/);
    // No empty store was made in its place: the next start says the same.
    await expect(start(dataDir)).rejects.toThrow(/is missing/);
  });

  it("another key-encryption key stops the server with an error naming ERASURE_KEK", async () => {
    const { dataDir } = await serverWithAUser({ ERASURE_KEK: "the-first-key-encryption-key-of-this-server" });
    await expect(start(dataDir, { ERASURE_KEK: "another-key-encryption-key-entirely-0000000" })).rejects.toThrow(
      /ERASURE_KEK/,
    );
  });

  it("a lost key-encryption key file stops the embedded server the same way", async () => {
    const { dataDir } = await serverWithAUser();
    rmSync(join(dataDir, KEK_FILE));
    await expect(start(dataDir)).rejects.toThrow(/set ERASURE_KEK, or restore .*erasure-kek/);
  });

  it("a key store restored from another server stops the server too", async () => {
    const { dataDir } = await serverWithAUser();
    const other = await serverWithAUser();
    for (const name of ["keys.sqlite", KEK_FILE]) copyFileSync(join(other.dataDir, name), join(dataDir, name));
    await expect(start(dataDir)).rejects.toThrow(/not the one this event log was written with/);
  });

  it("starts again on its own key store and key", async () => {
    const { dataDir } = await serverWithAUser();
    const running = await start(dataDir);
    await running.close();
  });
});
