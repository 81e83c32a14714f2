// `npm run migrate-log` on SQLite: a log written before sealing (plaintext events, addresses in stream names)
// copied into a new file that holds no personal data in the clear, reads back as the same events, rebuilds the
// same read models, lets a later erasure reach the person, keeps an erasure recorded before it, resumes a copy
// cut short without doubling anything, and refuses a source being written or a target that is not its copy.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteKeyStore } from "../../shared/adapters/sqlite/sqlite.key-store.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { keyEncryptionKeyFor } from "../../shared/erasure/key-encryption-key.ts";
import { SealingEventStore } from "../../shared/erasure/sealing-event-store.ts";
import type { EventStore, RecordedEvent } from "../../shared/event-store/event-store.port.ts";
import type { DomainEvent } from "../../shared/events.ts";
import {
  commentIdSchema,
  invitationIdSchema,
  pageIdSchema,
  threadIdSchema,
  userIdSchema,
  type UserId,
} from "../../shared/kernel/ids.ts";
import { runToExit } from "../support/processes.ts";
import { TEST_SESSION_SECRET, TestServer, type TestUser } from "../support/server.ts";
import { tempDir } from "../support/temp-dir.ts";

const person = (label: string, name: string) => ({
  id: userIdSchema.parse(randomUUID()),
  email: `${label}.plaintext-${randomUUID().slice(0, 6)}@example.com`,
  name,
});
const ann = person("ann", "Annabeth Quorvale");
const bob = person("bob", "Bartholomew Insley");
const dora = person("dora", "Doralind Vexmoor");
/** Registers with the server started on the old log: her events there are sealed already. */
const eve = person("eve", "Evangelina Thistlecombe");
const invitee = `carol.invitee-${randomUUID().slice(0, 6)}@example.com`;
const pageId = pageIdSchema.parse(randomUUID());
const invitationId = invitationIdSchema.parse(randomUUID());
const threadId = threadIdSchema.parse(randomUUID());
/** A word of Bob's comment on Ann's page, recorded as comments were before they named their page. */
const commentWord = "Vellichorine";

let root: { path: string; remove: () => Promise<void> };
let dataDir: string;
const oldLog = () => join(dataDir, "events.sqlite");
const newLog = () => join(dataDir, "events.migrated.sqlite");

async function writePlaintextLog(file: string): Promise<void> {
  const store = new SqliteEventStore(file);
  const append = async (stream: string, events: DomainEvent[], actorId: UserId) =>
    store.append(stream, toNewEvents(events, { actorId, correlationId: randomUUID(), now: new Date() }), "any");
  for (const user of [ann, bob, dora]) {
    await append(
      `email-${user.email}`,
      [{ type: "EmailReserved", data: { email: user.email, userId: user.id } }],
      user.id,
    );
    await append(
      `user-${user.id}`,
      [{ type: "UserRegistered", data: { userId: user.id, email: user.email, name: user.name, image: null } }],
      user.id,
    );
  }
  await append(
    `page-${pageId}`,
    [
      {
        type: "PageCreated",
        data: {
          pageId,
          ownerId: ann.id,
          parentId: null,
          title: "Quarterly plan",
          icon: null,
          markdown: "# Quarterly plan\n\nHiring first.",
        },
      },
    ],
    ann.id,
  );
  await append(
    `thread-${threadId}`,
    [
      {
        type: "ThreadOpened",
        data: { threadId, pageId, anchor: { quote: "Hiring", prefix: "", suffix: " first." }, createdBy: bob.id },
      },
    ],
    bob.id,
  );
  await append(
    `thread-${threadId}`,
    [
      {
        type: "CommentAdded",
        data: {
          threadId,
          commentId: commentIdSchema.parse(randomUUID()),
          authorId: bob.id,
          body: `${commentWord} hiring plan`,
        },
      },
    ],
    bob.id,
  );
  await append(
    `invitation-slot-page-${pageId}-${invitee}`,
    [{ type: "InvitationSlotTaken", data: { invitationId, previous: null } }],
    ann.id,
  );
  const access = { targetType: "page" as const, targetId: pageId, permission: "view" as const };
  const expiresAt = new Date(Date.now() + 6 * 24 * 3600 * 1000).toISOString();
  await append(
    `invitation-${invitationId}`,
    [{ type: "InvitationQueued", data: { invitationId, email: invitee, access, invitedBy: ann.id, expiresAt } }],
    ann.id,
  );
  // Dora was erased before sealing existed: the read models dropped her, the log kept her in plaintext.
  await append(`email-${dora.email}`, [{ type: "EmailReleased", data: { userId: dora.id } }], dora.id);
  await append(
    `user-${dora.id}`,
    [{ type: "UserErased", data: { userId: dora.id, erasedAt: new Date().toISOString() } }],
    dora.id,
  );
  await store.close();
}

const migrate = (args: string[]) =>
  runToExit("services/command-api/migrate-log.cli.ts", { DATA_DIR: dataDir, LOG_LEVEL: "silent" }, args);

async function allEvents(store: EventStore): Promise<RecordedEvent[]> {
  const events = await store.readAll(0, 100_000);
  await store.close();
  return events;
}

/** The files' bytes, WAL included, lower-cased. */
function bytesOf(paths: readonly string[]): string {
  const files = (path: string): string[] =>
    statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => files(join(path, name))) : [path];
  return paths
    .flatMap(files)
    .map((path) => readFileSync(path).toString("latin1"))
    .join("\n")
    .toLowerCase();
}
const logFiles = (file: string) => [file, `${file}-wal`].filter((path) => existsSync(path));

async function answers(server: TestServer): Promise<unknown[]> {
  const as = (user: typeof ann): Promise<TestUser> =>
    server.signIn("x", { id: user.id, email: user.email, name: user.name });
  const [annClient, bobClient] = [await as(ann), await as(bob)];
  const replies = [
    await annClient.get("/me"),
    await annClient.get("/pages"),
    await annClient.get(`/pages/${pageId}`),
    await annClient.get(`/shares/entity/page/${pageId}`),
    await bobClient.get("/me"),
  ];
  return replies.map((reply) => ({ status: reply.status, body: reply.body }));
}

let before: unknown[] = [];
beforeAll(async () => {
  root = await tempDir();
  dataDir = join(root.path, "data");
  mkdirSync(dataDir);
  await writePlaintextLog(oldLog());
  const server = await TestServer.start({ dataDir });
  await server.registered("eve", { email: eve.email, name: eve.name });
  before = await answers(server);
  await server.stop();
  // What the comparison after the switch stands on: the accounts, the page and the pending invitation.
  expect(JSON.stringify(before)).toContain(ann.name);
  expect(JSON.stringify(before)).toContain(invitee);
  expect(before.map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 200, 200, 200]);
}, 120_000);
afterAll(async () => root.remove());

describe("npm run migrate-log (SQLite)", () => {
  it("refuses a missing target, a source being written, a target that is another log or not a log", async () => {
    expect((await migrate([])).code).toBe(2);
    const writer = new Database(oldLog());
    writer.exec("BEGIN IMMEDIATE");
    const locked = await migrate(["--to", newLog()]);
    writer.exec("ROLLBACK");
    writer.close();
    expect(locked).toMatchObject({ code: 1, stderr: expect.stringContaining("is being written") });
    const other = join(root.path, "other.sqlite");
    const otherStore = new SqliteEventStore(other);
    await otherStore.append(
      "page-x",
      toNewEvents([{ type: "PageRenamed", data: { pageId, title: "Other", previousTitle: null } }], {
        actorId: ann.id,
        correlationId: "c",
        now: new Date(),
      }),
      "no_stream",
    );
    await otherStore.close();
    expect(await migrate(["--to", other])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("not a copy of this source"),
    });
    const notALog = join(root.path, "notes.txt");
    writeFileSync(notALog, "keep me");
    expect(await migrate(["--to", notALog])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("not an event log"),
    });
    expect(readFileSync(notALog, "utf8")).toBe("keep me");
    expect(existsSync(newLog())).toBe(false);
  }, 120_000);

  it("copies in two runs (the first stopped after 4 events): the same events once each, sealed, addresses out of stream names", async () => {
    const cut = await migrate(["--to", newLog(), "--stop-after", "4"]);
    expect(cut).toMatchObject({ code: 0, stdout: expect.stringContaining("run again to continue") });
    expect(await allEvents(new SqliteEventStore(newLog()))).toHaveLength(4);
    const resumed = await migrate(["--to", newLog()]);
    expect(resumed).toMatchObject({ code: 0, stdout: expect.stringContaining("4 of them by an earlier run") });
    expect(resumed.stdout).toContain("the copy is complete");
    expect(resumed.stderr).toMatch(/\[#+\]/);
    const again = await migrate(["--to", newLog()]);
    expect(again.code).toBe(0);

    const source = await allEvents(new SqliteEventStore(oldLog()));
    const copied = await allEvents(new SqliteEventStore(newLog()));
    const shape = (event: RecordedEvent) => ({
      id: event.id,
      type: event.type,
      revision: event.revision,
      metadata: event.metadata,
    });
    expect(copied.map(shape)).toEqual(source.map(shape));
    for (const event of copied) expect(event.stream).not.toContain("@");
    const stored = bytesOf(logFiles(newLog()));
    // A comment recorded before comments named their page is sealed under its thread's page's key.
    for (const secret of [
      ann.email,
      ann.name,
      bob.email,
      bob.name,
      dora.email,
      dora.name,
      eve.email,
      eve.name,
      invitee,
      commentWord,
      "Quarterly plan",
    ])
      expect(stored).not.toContain(secret.toLowerCase());

    // Through the sealing store, with the key store the services use: the same events as the old log reads
    // (Eve's, sealed there already, copied as they were), but Dora stays erased.
    const config = loadConfig({ DATA_DIR: dataDir });
    const kek = keyEncryptionKeyFor(config, { createInDataDir: false });
    const keys = new SqliteKeyStore(join(dataDir, "keys.sqlite"), kek);
    const original = await allEvents(new SealingEventStore(new SqliteEventStore(oldLog()), keys, kek));
    const opened = await allEvents(
      new SealingEventStore(new SqliteEventStore(newLog()), keys, kek, { closeKeys: true }),
    );
    expect(JSON.stringify(original)).toContain(eve.name);
    const erased = (event: RecordedEvent) => JSON.stringify(event.data).includes(dora.id);
    // The one change to what an event says: the old comment now names its thread's page.
    const asCopied = (event: RecordedEvent) =>
      event.type === "CommentAdded" && typeof event.data === "object" ? { ...event.data, pageId } : event.data;
    expect(opened.filter((event) => !erased(event)).map((event) => event.data)).toEqual(
      original.filter((event) => !erased(event)).map(asCopied),
    );
    const doraRegistered = opened.find((event) => event.type === "UserRegistered" && erased(event));
    expect(doraRegistered?.data).toEqual({ userId: dora.id, email: "", name: "Erased user", image: null });
    expect(JSON.stringify(opened)).not.toContain(dora.email);
  }, 180_000);

  it("after the switch a replay builds the same answers, and an erasure reaches the person in the new log", async () => {
    // The switch as docs/operations/migrate-log.md describes it: the old log and read models out of DATA_DIR, the copy in.
    const retired = join(root.path, "retired");
    mkdirSync(retired);
    for (const name of readdirSync(dataDir).filter((entry) => /^(events|read-models)\.sqlite/.test(entry)))
      renameSync(join(dataDir, name), join(retired, name));
    renameSync(newLog(), oldLog());
    const replay = await runToExit(
      "services/projector/replay.cli.ts",
      { DATA_DIR: dataDir, LOG_LEVEL: "silent", AUTH_SESSION_SECRET: TEST_SESSION_SECRET },
      [],
    );
    expect(replay.code).toBe(0);
    const server = await TestServer.start({ dataDir });
    try {
      expect(await answers(server)).toEqual(before);
      const annClient = await server.signIn("ann", { id: ann.id, email: ann.email, name: ann.name });
      expect((await annClient.call("DELETE", "/me", { json: { confirm: ann.email } })).status).toBeLessThan(300);
    } finally {
      await server.stop();
    }
    const everything = bytesOf([dataDir]);
    // Ann's erasure purged her page, and Bob's comment on it went with it.
    for (const secret of [ann.email, ann.name, dora.email, dora.name, "Quarterly plan", commentWord])
      expect(everything).not.toContain(secret.toLowerCase());
    rmSync(retired, { recursive: true });
  }, 180_000);
});
