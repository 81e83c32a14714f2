// `npm run backup` takes an online copy of a serving deployment, `npm run restore` puts it into an empty
// DATA_DIR, and an erasure made after the backup survives the restore when the old DATA_DIR's erasure record
// is given (--erasures-from): no file of the restored directory holds the erased words, and their pages answer
// 404. A backup taken under concurrent writes holds every write acknowledged before it began.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeBackup } from "../../services/operations/backup.ts";
import { readManifest } from "../../services/operations/backup-manifest.ts";
import { restoreBackup } from "../../services/operations/restore.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { runToExit } from "../support/processes.ts";
import { filesHolding } from "../support/raw-scan.ts";
import { TEST_SESSION_SECRET, TestServer, type TestUser } from "../support/server.ts";
import { tempDir } from "../support/temp-dir.ts";
import { createFolder, createPage, share } from "../support/workspace-builders.ts";

const embedded = process.env.WORKSPACE_TEST_STACK !== "production";
const silent = createLogger("silent");
const configFor = (dataDir: string) =>
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", AUTH_SESSION_SECRET: TEST_SESSION_SECRET });
const restoreCli = (dataDir: string, args: string[]) =>
  runToExit(
    "services/operations/restore.cli.ts",
    { DATA_DIR: dataDir, LOG_LEVEL: "silent", AUTH_SESSION_SECRET: TEST_SESSION_SECRET },
    args,
  );

let scratch: { path: string; remove: () => Promise<void> };
beforeAll(async () => {
  scratch = await tempDir("workspace-backup-");
});
afterAll(async () => {
  await scratch.remove();
});

/** Reads a page as `user` on a server started over `dataDir`, then stops that server (the directory is kept). */
async function pageStatuses(dataDir: string, reads: { user: TestUser; pageId: string }[]): Promise<number[]> {
  const server = await TestServer.start({ dataDir });
  try {
    const statuses: number[] = [];
    for (const { user, pageId } of reads) {
      const session = await server.signIn(user.name, { id: user.id, email: user.email, name: user.name });
      statuses.push((await session.get(`/pages/${pageId}`)).status);
    }
    return statuses;
  } finally {
    await server.stop();
  }
}

describe.skipIf(!embedded)("backup and restore (embedded deployment; the split one uses its stores' own tools)", () => {
  it("restores with --erasures-from: an account erased after the backup is in no file of the restored directory, and its pages answer 404", async () => {
    const server = await TestServer.start();
    const backupDir = join(scratch.path, "erasure-backup");
    const restored = join(scratch.path, "erasure-restored");
    const restoredLater = join(scratch.path, "erasure-restored-later");
    const herWords = ["Quorvellian", "Blistermoot", "Thrandlewick"];
    const email = "Yselda.Marrowquint-53@example.com";
    const name = "Yselda Marrowquint";
    try {
      const bob = await server.registered("bob", { name: "Bob Keeper" });
      const yselda = await server.registered("yselda", { email, name });
      const folder = await createFolder(yselda, { name: "Quorvellian archive" });
      const herPage = await createPage(yselda, {
        title: "Blistermoot notes",
        markdown: "the Thrandlewick plan",
        parentId: folder,
      });
      expect((await share(yselda, "page", herPage, bob.email, "view")).status).toBe(200);
      const bobsPage = await createPage(bob, { title: "Bob's own plan", markdown: "kept" });
      expect((await bob.get(`/pages/${herPage}`)).status).toBe(200);

      const manifest = await takeBackup({ dataDir: server.dataDir, to: backupDir });
      expect(manifest.eventStorePosition).toBeGreaterThan(0);
      expect(manifest.files.map((file) => file.path)).toEqual(
        expect.arrayContaining(["events.sqlite", "keys.sqlite", "webhooks.sqlite"]),
      );
      expect(manifest.files.map((file) => file.path)).not.toContain("erasure-kek");
      expect((await readManifest(backupDir)).files).toEqual(manifest.files);

      const erased = await yselda.call("DELETE", "/me", { json: { confirm: email } });
      expect(erased.status, erased.text).toBeLessThan(300);

      const kek = join(server.dataDir, "erasure-kek");
      const withErasures = await restoreCli(restored, [
        "--from",
        backupDir,
        "--erasures-from",
        server.dataDir,
        "--kek-from",
        kek,
      ]);
      expect(withErasures.code, withErasures.stderr).toBe(0);
      expect(withErasures.stdout).toMatch(/applied \d+ erasures? recorded in/);
      expect(withErasures.stdout).toContain(`applied the erasure of user:${yselda.id}: account erased`);
      expect(filesHolding(restored, [email, name, ...herWords])).toEqual([]);
      expect(
        await pageStatuses(restored, [
          { user: bob, pageId: herPage },
          { user: bob, pageId: bobsPage },
        ]),
      ).toEqual([404, 200]);
      expect(filesHolding(restored, [email, name, ...herWords])).toEqual([]);

      // Without the erasure record the restore says what it lacks; the same option completes it afterwards.
      const without = await restoreCli(restoredLater, ["--from", backupDir, "--kek-from", kek]);
      expect(without.code, without.stderr).toBe(0);
      expect(without.stdout).toContain("NOT APPLIED");
      expect(without.stdout).toContain("--erasures-from OLD_DATA_DIR");
      expect(filesHolding(restoredLater, [name]).length).toBeGreaterThan(0);
      const later = await restoreCli(restoredLater, ["--erasures-from", server.dataDir]);
      expect(later.code, later.stderr).toBe(0);
      expect(
        await pageStatuses(restoredLater, [
          { user: bob, pageId: herPage },
          { user: bob, pageId: bobsPage },
        ]),
      ).toEqual([404, 200]);
      expect(filesHolding(restoredLater, [email, name, ...herWords])).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("finds in a backup taken under concurrent writes every write acknowledged before the backup began", async () => {
    const server = await TestServer.start();
    const backupDir = join(scratch.path, "busy-backup");
    const restored = join(scratch.path, "busy-restored");
    try {
      const writers = await Promise.all([server.registered("w1"), server.registered("w2"), server.registered("w3")]);
      const acknowledged: { pageId: string; title: string; at: number; user: TestUser }[] = [];
      let writing = true;
      const write = async (user: TestUser) => {
        for (let i = 0; writing; i += 1) {
          const title = `${user.name} page ${i}`;
          const reply = await user.post("/pages", { title, markdown: `body ${i}`, parentId: null });
          if (reply.status === 201)
            acknowledged.push({ pageId: String(reply.body.id), title, at: performance.now(), user });
        }
      };
      const running = writers.map((user) => write(user));
      while (acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 10));
      const began = performance.now();
      const manifest = await takeBackup({ dataDir: server.dataDir, to: backupDir });
      const countAfter = acknowledged.length;
      while (acknowledged.length < countAfter + 10) await new Promise((resolve) => setTimeout(resolve, 10));
      writing = false;
      await Promise.all(running);
      const before = acknowledged.filter((write) => write.at < began);
      expect(before.length).toBeGreaterThanOrEqual(30);

      await restoreBackup({
        from: backupDir,
        config: configFor(restored),
        kekFrom: join(server.dataDir, "erasure-kek"),
        erasuresFrom: null,
        logger: silent,
      });
      const check = await TestServer.start({ dataDir: restored });
      try {
        for (const write of before) {
          const session = await check.signIn(write.user.name, {
            id: write.user.id,
            email: write.user.email,
            name: write.user.name,
          });
          const page = await session.get(`/pages/${write.pageId}`);
          expect(page.status, write.title).toBe(200);
          expect(page.body.title).toBe(write.title);
        }
      } finally {
        await check.stop();
      }
      expect(manifest.eventStorePosition).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("refuses a non-empty DATA_DIR, a damaged backup, and a restore without the key-encryption key", async () => {
    const server = await TestServer.start();
    const backupDir = join(scratch.path, "checked-backup");
    try {
      await server.registered("ann");
      await takeBackup({ dataDir: server.dataDir, to: backupDir });
    } finally {
      await server.stop();
    }
    const kekFile = join(scratch.path, "kek");
    await writeFile(kekFile, "x".repeat(48));
    const busy = join(scratch.path, "busy-target");
    await mkdir(busy);
    await writeFile(join(busy, "something"), "here");
    await expect(
      restoreBackup({ from: backupDir, config: configFor(busy), kekFrom: kekFile, erasuresFrom: null, logger: silent }),
    ).rejects.toThrow(/is not empty: a restore goes into an empty directory only/);
    const cli = await restoreCli(busy, ["--from", backupDir, "--kek-from", kekFile]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("is not empty");

    const empty = join(scratch.path, "no-kek-target");
    await expect(
      restoreBackup({ from: backupDir, config: configFor(empty), kekFrom: null, erasuresFrom: null, logger: silent }),
    ).rejects.toThrow(/holds no key-encryption key/);

    const events = join(backupDir, "events.sqlite");
    const bytes = await readFile(events);
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
    await writeFile(events, bytes);
    await expect(
      restoreBackup({
        from: backupDir,
        config: configFor(empty),
        kekFrom: kekFile,
        erasuresFrom: null,
        logger: silent,
      }),
    ).rejects.toThrow(/the backup is damaged: events.sqlite does not match its checksum/);
    expect(existsSync(empty)).toBe(false);
  }, 60_000);
});
