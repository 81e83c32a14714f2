// The projector publishes each batch's events to the bus inside the batch: a bus that fails holds the batch
// back (nothing projected, checkpoint unmoved) until it is retried, so no event is lost for the bus.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Projector } from "../../services/projector/projector.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import type { SqliteBatch } from "../../shared/adapters/sqlite/sqlite-batch.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import type { StoredEvent } from "../../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { tempDir } from "../support/temp-dir.ts";

let dir: { path: string; remove: () => Promise<void> };
let eventStore: SqliteEventStore;
let projection: SqliteProjectionStore;
let reader: SqliteReadStore;
let projector: Projector<SqliteBatch> | null = null;

beforeEach(async () => {
  dir = await tempDir();
  eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"), { pollMs: 20 });
  projection = new SqliteProjectionStore(join(dir.path, "read.sqlite"));
  reader = new SqliteReadStore(join(dir.path, "read.sqlite"));
});
afterEach(async () => {
  await projector?.stop();
  await reader.close();
  await projection.close();
  await eventStore.close();
  await dir.remove();
});

it("projects and publishes a batch only once the bus takes it, and loses no event while the bus is down", async () => {
  const owner = userIdSchema.parse(randomUUID());
  const pageId = pageIdSchema.parse(randomUUID());
  const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
  const created = await eventStore.append(
    `page-${pageId}`,
    toNewEvents([{ type: "PageCreated", data: { pageId, ownerId: owner, parentId: null, title: "Published", icon: null, markdown: "" } }], context),
    "no_stream",
  );
  const published: string[] = [];
  let busDown = true;
  const publish = async (events: readonly StoredEvent[]) => {
    if (busDown) throw new Error("bus unreachable");
    published.push(...events.map((event) => event.id));
  };
  projector = new Projector({ eventStore, store: projection, logger: pino({ level: "silent" }), publish, retryDelayMs: 20 });
  await projector.start();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await reader.checkpoint()).toBe(0);
  expect(await reader.pages.get(pageId)).toBeNull();
  busDown = false;
  const deadline = Date.now() + 5_000;
  while ((await reader.checkpoint()) < created.position && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await reader.checkpoint()).toBe(created.position);
  expect((await reader.pages.get(pageId))?.title).toBe("Published");
  expect(published).toHaveLength(1);
});
