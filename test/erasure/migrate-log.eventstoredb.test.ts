// `npm run migrate-log` on EventStoreDB (EVENTSTORE_URL, or a container when a runtime answers): a namespace
// written before sealing copied into a new namespace, in two runs, sealed, with addresses out of stream names.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EventStoreDbEventStore } from "../../shared/adapters/eventstoredb/eventstoredb.event-store.ts";
import { SqliteKeyStore } from "../../shared/adapters/sqlite/sqlite.key-store.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { SealingEventStore } from "../../shared/erasure/sealing-event-store.ts";
import type { RecordedEvent } from "../../shared/event-store/event-store.port.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { eventStoreDbServer, reportSkip } from "../support/production-servers.ts";
import { runToExit } from "../support/processes.ts";
import { TEST_ERASURE_KEK } from "../support/server.ts";
import { tempDir } from "../support/temp-dir.ts";

const server = await eventStoreDbServer();
const skipped = reportSkip("migrate-log on EventStoreDB", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("npm run migrate-log (EventStoreDB)", () => {
  if ("skip" in server) return;

  it("copies a namespace into a new one in two runs: the same events once each, sealed, addresses hashed", async () => {
    const dir = await tempDir();
    const from = `plain-${randomUUID().slice(0, 8)}`;
    const to = `sealed-${randomUUID().slice(0, 8)}`;
    const users = Array.from({ length: 3 }, (_, i) => ({
      id: userIdSchema.parse(randomUUID()),
      email: `esdb-${i}-${randomUUID().slice(0, 6)}@example.com`,
      name: `Esdbperson Number${i}`,
    }));
    const plain = EventStoreDbEventStore.connect(server.url, { namespace: from });
    for (const user of users) {
      const context = { actorId: user.id, correlationId: randomUUID(), now: new Date() };
      await plain.append(
        `email-${user.email}`,
        toNewEvents([{ type: "EmailReserved", data: { email: user.email, userId: user.id } }], context),
        "no_stream",
      );
      await plain.append(
        `user-${user.id}`,
        toNewEvents(
          [{ type: "UserRegistered", data: { userId: user.id, email: user.email, name: user.name, image: null } }],
          context,
        ),
        "no_stream",
      );
    }
    const source = await plain.readAll(0, 1_000);
    await plain.close();
    const env = {
      DATA_DIR: dir.path,
      LOG_LEVEL: "silent",
      EVENTSTORE_URL: server.url,
      EVENTSTORE_NAMESPACE: from,
      ERASURE_KEK: TEST_ERASURE_KEK,
    };
    const migrate = (args: string[]) =>
      runToExit("services/command-api/migrate-log.cli.ts", env, ["--to-namespace", to, ...args]);
    try {
      expect(await migrate(["--stop-after", "2"])).toMatchObject({
        code: 0,
        stdout: expect.stringContaining("run again"),
      });
      expect(await migrate([])).toMatchObject({
        code: 0,
        stdout: expect.stringContaining("2 of them by an earlier run"),
      });
      const target = EventStoreDbEventStore.connect(server.url, { namespace: to });
      const copied = await target.readAll(0, 1_000);
      const shape = (event: RecordedEvent) => ({
        id: event.id,
        type: event.type,
        revision: event.revision,
        metadata: event.metadata,
      });
      expect(copied.map(shape)).toEqual(source.map(shape));
      for (const event of copied) expect(event.stream).not.toContain("@");
      for (const user of users) expect(JSON.stringify(copied)).not.toContain(user.name);
      const kek = new KeyEncryptionKey(TEST_ERASURE_KEK);
      const sealed = new SealingEventStore(target, new SqliteKeyStore(join(dir.path, "keys.sqlite"), kek), kek, {
        closeKeys: true,
      });
      expect((await sealed.readAll(0, 1_000)).map((event) => event.data)).toEqual(source.map((event) => event.data));
      await sealed.close();
    } finally {
      await dir.remove();
    }
  }, 180_000);
});
