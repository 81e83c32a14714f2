// The publisher beside the projector: a bus that fails holds back neither the read models nor the writes; the
// publisher retries from its own position and, once the bus takes messages again, publishes what it missed, in
// order, with ids only.
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Projector } from "../../services/projector/projector.ts";
import type { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import type { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { InProcessBus } from "../../shared/adapters/in-process/in-process.bus.ts";
import type { BusMessage } from "../../shared/bus/bus.port.ts";
import { CheckpointWatcher } from "../../shared/read-store/checkpoint-watcher.ts";
import { Publisher } from "../../services/projector/publisher.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { projectorStores, type ProjectorStores } from "../support/projector-stores.ts";
import { until } from "../support/poll.ts";

let stores: ProjectorStores;
let eventStore: SqliteEventStore;
let projection: SqliteProjectionStore;
let reader: SqliteReadStore;
let projector: Projector<SqliteBatch> | null = null;
let publisher: Publisher | null = null;
let watcher: CheckpointWatcher | null = null;

beforeEach(async () => {
  stores = await projectorStores();
  ({ eventStore, projection, reader } = stores);
});
afterEach(async () => {
  await publisher?.stop();
  await projector?.stop();
  watcher?.close();
  await stores.close();
});

/** The in-process bus, made unreachable at will, as NATS is while it is down. */
class FlakyBus extends InProcessBus {
  down = true;
  override async publish(messages: readonly BusMessage[]): Promise<void> {
    if (this.down) throw new Error("bus unreachable");
    return super.publish(messages);
  }
  override async savePublishedPosition(position: number): Promise<void> {
    if (this.down) throw new Error("bus unreachable");
    return super.savePublishedPosition(position);
  }
}

it("projects while the bus is down, then publishes what it missed, in order, with ids only", async () => {
  const owner = userIdSchema.parse(randomUUID());
  const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
  const logger = pino({ level: "silent" });
  const bus = new FlakyBus(5);
  const received: BusMessage[] = [];
  await bus.subscribe({
    subjects: ["PageCreated"],
    group: "audit",
    handler: async (message) => void received.push(message),
  });
  watcher = new CheckpointWatcher(reader);
  projector = new Projector({ eventStore, store: projection, logger, watcher, retryDelayMs: 20 });
  await projector.start();
  publisher = new Publisher({ eventStore, bus, projection: watcher, logger, retryDelayMs: 10, maxRetryDelayMs: 50 });
  await publisher.start();

  const pages = Array.from({ length: 3 }, () => pageIdSchema.parse(randomUUID()));
  let last = 0;
  for (const pageId of pages) {
    last = (
      await eventStore.append(
        `page-${pageId}`,
        toNewEvents(
          [
            {
              type: "PageCreated",
              data: {
                pageId,
                ownerId: owner,
                parentId: null,
                title: "Secret title",
                icon: null,
                markdown: "secret body",
              },
            },
          ],
          context,
        ),
        "no_stream",
      )
    ).position;
  }
  // The read models keep up while the bus refuses every message.
  await until(async () => (await reader.checkpoint()) >= last, "the read models");
  for (const pageId of pages) expect((await reader.pages.get(pageId))?.title).toBe("Secret title");
  expect(publisher.failing).toBe(true);
  expect(received).toEqual([]);

  bus.down = false;
  await until(async () => received.length === pages.length, "the missed messages");
  expect(received.map((message) => message.data)).toEqual(pages.map((pageId) => ({ pageId, ownerId: owner })));
  expect(JSON.stringify(received)).not.toContain("secret");
  expect(await bus.publishedPosition()).toBe(last);
  expect(publisher.failing).toBe(false);
});
