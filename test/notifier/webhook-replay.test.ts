// The webhook worker over a large log costs a bounded amount at a time. A replay reads the log in batches bounded
// by bytes, queues no more undelivered deliveries than its bound (the rest follows as those go), and lets the
// event loop turn between batches; the live follower reads fewer events a step when many webhooks match each, so
// a step's matching and its write stay bounded. Real SQLite stores; the event store is wrapped only to record
// what each read returned.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
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
/** Bytes of event data each readAll of the log returned, in call order. */
let reads: number[];
/** Events each readAll of the log returned, in call order. */
let readEvents: number[];
let recording: EventStore;

beforeEach(async () => {
  dir = await tempDir();
  eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"));
  deliveries = new SqliteWebhookDeliveries(join(dir.path, "webhooks.sqlite"));
  reads = [];
  readEvents = [];
  recording = {
    append: (stream, events, expected) => eventStore.append(stream, events, expected),
    read: (stream) => eventStore.read(stream),
    async readAll(after, limit, maxBytes) {
      const events = await eventStore.readAll(after, limit, maxBytes);
      reads.push(events.reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event.data)), 0));
      readEvents.push(events.length);
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

async function createPages(count: number, size: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const pageId = pageIdSchema.parse(randomUUID());
    await pageCommands.handle(
      eventStore,
      pageId,
      {
        type: "CreatePage",
        pageId,
        ownerId: owner,
        parentId: null,
        title: `page ${index}`,
        icon: null,
        markdown: "x".repeat(size),
      },
      context(),
    );
  }
}

async function createWebhook(url = "https://hooks.example.com/in"): Promise<string> {
  const webhookId = webhookIdSchema.parse(randomUUID());
  const settings = { url, events: ["page.created" as const], description: null };
  await webhookCommands.handle(
    eventStore,
    webhookId,
    {
      type: "CreateWebhook",
      webhookId,
      ownerId: owner,
      folderId: null,
      settings,
      sealedSecret: sealer.seal(webhookId, newWebhookSecret()),
    },
    context(),
  );
  return webhookId;
}

/** The read models built from the log as it stands. */
async function project(): Promise<void> {
  const projection = new SqliteProjectionStore(join(dir.path, "read-models.sqlite"));
  await rebuildReadModels({ eventStore, store: projection, logger });
  await projection.close();
  readStore = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
}

/** `count` pages of `size` characters of markdown, then a webhook of their owner for page.created. */
async function pagesThenWebhook(count: number, size: number): Promise<string> {
  await createPages(count, size);
  const webhookId = await createWebhook();
  await project();
  return webhookId;
}

function worker(replayQueue: number): WebhookWorker {
  return new WebhookWorker({
    eventStore: recording,
    readStore,
    deliveries,
    sealer,
    logger,
    clock: () => new Date(),
    allowPrivateNetworks: false,
    retentionMs: 86_400_000,
    leaseMs: 60_000,
    replayQueue,
  });
}

async function replayAll(webhookId: string): Promise<void> {
  const job = {
    id: randomUUID(),
    webhookId,
    cursor: 0,
    upTo: await eventStore.headPosition(),
    createdAt: new Date().toISOString(),
  };
  expect(await deliveries.addReplay(job, 1)).toBe(true);
}

describe("webhook replays", () => {
  it("read the log in batches bounded by bytes, whatever the events weigh", async () => {
    const webhookId = await pagesThenWebhook(40, 300_000);
    await replayAll(webhookId);
    const replaying = worker(1_000);
    while ((await deliveries.replays(1)).length > 0) await replaying.maintainOnce();
    expect(await deliveries.undelivered(webhookId, 1_000)).toBe(40);
    // 4 MiB per batch, and the one event that crosses it.
    expect(Math.max(...reads)).toBeLessThanOrEqual(4 * 1024 * 1024 + 310_000);
  });

  it("keep at most the replay queue's bound of deliveries undelivered, and match the rest as those go", async () => {
    const webhookId = await pagesThenWebhook(12, 10);
    await replayAll(webhookId);
    const replaying = worker(5);
    for (let step = 0; step < 5; step += 1) await replaying.maintainOnce();
    expect(await deliveries.undelivered(webhookId, 100)).toBe(5);
    expect(await deliveries.replays(1)).toHaveLength(1);
    let sent = 0;
    while ((await deliveries.replays(1)).length > 0 || (await deliveries.undelivered(webhookId, 100)) > 0) {
      const now = new Date(Date.now() + 1_000).toISOString();
      const [due] = await deliveries.claimDue(now, new Date(Date.now() + 60_000).toISOString(), 1, 4);
      if (due) {
        await deliveries.record(due.id, {
          status: "delivered",
          attempts: 1,
          lastResponseStatus: 200,
          lastError: null,
          deliveredAt: now,
          nextAttemptAt: null,
        });
        sent += 1;
      }
      await replaying.maintainOnce();
      expect(await deliveries.undelivered(webhookId, 100)).toBeLessThanOrEqual(5);
    }
    expect(sent).toBe(12);
  });

  it("let the event loop turn between batches", async () => {
    const webhookId = await pagesThenWebhook(1_600, 10);
    await replayAll(webhookId);
    const running = worker(10_000);
    running.start();
    const perTurn: number[] = [];
    let seen = reads.length;
    try {
      while ((await deliveries.replays(1)).length > 0) {
        await nextTurn();
        perTurn.push(reads.length - seen);
        seen = reads.length;
      }
    } finally {
      await running.stop();
    }
    expect(await deliveries.undelivered(webhookId, 10_000)).toBe(1_600);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(1);
  });
});

describe("the live webhook follower", () => {
  it("queues a bounded number of deliveries a step, however many webhooks match each event", async () => {
    const webhooks = 50;
    for (let index = 0; index < webhooks; index += 1) await createWebhook(`https://hooks.example.com/${index}`);
    const pages = 200;
    await createPages(pages, 5);
    await project();
    const follower = worker(100);
    while (await follower.followOnce()) {
      // One step after another, as the worker runs them with a turn of the event loop between.
    }
    let queued = 0;
    for (const webhook of await readStore.webhooks.active()) queued += await deliveries.undelivered(webhook.id, 1_000);
    // Every page made a delivery for every webhook; no step read more events than 2,000 deliveries need.
    expect(queued).toBe(webhooks * pages);
    expect(Math.max(...readEvents) * webhooks).toBeLessThanOrEqual(2_000);
  }, 60_000);
});
