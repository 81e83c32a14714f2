// A projector process killed with SIGKILL in the middle of its work resumes from its checkpoint and ends with
// exactly the read models a clean rebuild produces: nothing lost, nothing applied twice.
import { inheritedEnv } from "../support/server.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { folderIdSchema, pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { SqliteProjectionStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { until } from "../support/poll.ts";

const dirs: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const remove of dirs) await remove();
});

function startProjector(dataDir: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "services/projector/main.ts"], {
    env: { ...inheritedEnv(), DATA_DIR: dataDir, LOG_LEVEL: "silent" },
    stdio: "ignore",
  });
}

function checkpointOf(file: string): number {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const row = db.prepare<[], { position: number }>("SELECT position FROM checkpoint WHERE id = 1").get();
    return row?.position ?? 0;
  } catch {
    return 0; // not created yet
  } finally {
    db?.close();
  }
}

function dump(file: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return ["pages", "page_contents", "page_ancestors", "folders", "folder_ancestors", "users"].map((table) =>
      db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all(),
    );
  } finally {
    db.close();
  }
}

describe("projector crash recovery", () => {
  it("resumes after SIGKILL mid-run without losing or doubling any effect", async () => {
    const dir = await tempDir();
    dirs.push(dir.remove);
    const eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"));
    const owner = userIdSchema.parse(randomUUID());
    const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
    await eventStore.append(
      `user-${owner}`,
      toNewEvents(
        [{ type: "UserRegistered", data: { userId: owner, email: "o@example.com", name: "O", image: null } }],
        context,
      ),
      "no_stream",
    );
    const folderId = folderIdSchema.parse(randomUUID());
    await eventStore.append(
      `folder-${folderId}`,
      toNewEvents(
        [{ type: "FolderCreated", data: { folderId, ownerId: owner, parentId: null, name: "F", icon: null } }],
        context,
      ),
      "no_stream",
    );
    for (let i = 0; i < 6_000; i += 1) {
      const pageId = pageIdSchema.parse(randomUUID());
      await eventStore.append(
        `page-${pageId}`,
        toNewEvents(
          [
            {
              type: "PageCreated",
              data: {
                pageId,
                ownerId: owner,
                parentId: i % 2 ? folderId : null,
                title: `Page ${i}`,
                icon: null,
                markdown: `body ${i}`,
              },
            },
            { type: "PageRenamed", data: { pageId, title: `Renamed ${i}`, previousTitle: null } },
            { type: "PageContentReplaced", data: { pageId, markdown: `new body ${i}` } },
          ],
          context,
        ),
        "no_stream",
      );
    }
    const head = await eventStore.headPosition();
    const readFile = join(dir.path, "read-models.sqlite");

    const first = startProjector(dir.path);
    await until(() => checkpointOf(readFile) > 0, "the first batch", 60_000);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const killedAt = checkpointOf(readFile);
    expect(killedAt).toBeGreaterThan(0);
    expect(killedAt).toBeLessThan(head);

    const second = startProjector(dir.path);
    await until(() => checkpointOf(readFile) === head, "the projector to catch up", 60_000);
    second.kill("SIGTERM");
    await new Promise((resolve) => second.once("exit", resolve));

    const referenceFile = join(dir.path, "reference.sqlite");
    const reference = new SqliteProjectionStore(referenceFile);
    await rebuildReadModels({ eventStore, store: reference, logger: pino({ level: "silent" }) });
    await reference.close();
    await eventStore.close();
    expect(dump(readFile)).toEqual(dump(referenceFile));
  });
});
