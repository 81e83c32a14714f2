// The live follower matches the log against every active webhook: with many webhooks, each event may make a
// delivery for each of them, so a step reads fewer events and a step's matching and its write stay bounded,
// whatever the number of webhooks. Real SQLite stores; the event store is wrapped only to count what each read
// returned.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookWorker } from "../../services/notifier/webhooks/webhook-worker.ts";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { SqliteWebhookDeliveries } from "../../shared/adapters/sqlite/webhook-deliveries.sqlite.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { pageCommands } from "../../shared/pages/page.commands.ts";
import { webhookCommands } from "../../shared/webhooks/webhook.commands.ts";
import { webhookIdSchema } from "../../shared/webhooks/webhook.decider.ts";
import { newWebhookSecret, WebhookSecretSealer } from "../../shared/webhooks/webhook-secret.ts";
import { tempDir } from "../support/temp-dir.ts";

const logger = pino({ level: "silent" });
const owner = userIdSchema.parse(randomUUID());
const sealer = new WebhookSecretSealer("a test key that is long enough to seal webhook secrets");
const context = () => ({ actorId: owner, correlationId: randomUUID(), now: new Date() });

let dir: { path: string; remove: () => Promise<void> };
let eventStore: SqliteEventStore;
let readStore: SqliteReadStore;
let deliveries: SqliteWebhookDeliveries;
/** Events each readAll of the log returned, in call order. */
let reads: number[];
let counting: EventStore;

beforeEach(async () => {
  dir = await tempDir();
  eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"));
  deliveries = new SqliteWebhookDeliveries(join(dir.path, "webhooks.sqlite"));
  reads = [];
  counting = {
    append: (stream, events, expected) => eventStore.append(stream, events, expected),
    read: (stream) => eventStore.read(stream),
    async readAll(after, limit, maxBytes) {
      const events = await eventStore.readAll(after, limit, maxBytes);
      reads.push(events.length);
      return events;
    },
    headPosition: () => eventStore.headPosition(),
    subscribe: (after, handler, options) => eventStore.subscribe(after, handler, options),
    close: () => eventStore.close(),
  };
});
afterEach(async () => {
  await readStore.close();
  await deliveries.close();
  await eventStore.close();
  await dir.remove();
});

describe("the live webhook follower", () => {
  it("queues a bounded number of deliveries a step, however many webhooks match each event", async () => {
    const webhooks = 50;
    for (let index = 0; index < webhooks; index += 1) {
      const webhookId = webhookIdSchema.parse(randomUUID());
      const settings = { url: `https://hooks.example.com/${index}`, events: ["page.created" as const], description: null };
      await webhookCommands.handle(eventStore, webhookId, { type: "CreateWebhook", webhookId, ownerId: owner, folderId: null, settings, sealedSecret: sealer.seal(webhookId, newWebhookSecret()) }, context());
    }
    const pages = 200;
    for (let index = 0; index < pages; index += 1) {
      const pageId = pageIdSchema.parse(randomUUID());
      await pageCommands.handle(eventStore, pageId, { type: "CreatePage", pageId, ownerId: owner, parentId: null, title: `page ${index}`, icon: null, markdown: "words" }, context());
    }
    const projection = new SqliteProjectionStore(join(dir.path, "read-models.sqlite"));
    await rebuildReadModels({ eventStore, store: projection, logger });
    await projection.close();
    readStore = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
    const follower = new WebhookWorker({ eventStore: counting, readStore, deliveries, sealer, logger, clock: () => new Date(), allowPrivateNetworks: false, retentionMs: 86_400_000, leaseMs: 60_000, replayQueue: 100 });

    while (await follower.followOnce()) {
      // One step after another, as the worker runs them with a turn of the event loop between.
    }
    // Every page made a delivery for every webhook; no step read more events than 2,000 deliveries need.
    let queued = 0;
    for (let offset = 0; ; offset += 1) {
      const webhook = (await readStore.webhooks.active())[offset];
      if (!webhook) break;
      queued += await deliveries.undelivered(webhook.id, 1_000);
    }
    expect(queued).toBe(webhooks * pages);
    expect(Math.max(...reads) * webhooks).toBeLessThanOrEqual(2_000);
  }, 60_000);
});
