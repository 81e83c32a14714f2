// The webhook follower meets every erasure in the log, also where no webhook is left to match its stretch of the
// log, and forgets the erased owner's deliveries there while another owner's stay. Real SQLite stores; events
// written by the deciders, read models built from the log.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookWorker } from "../../services/notifier/webhooks/webhook-worker.ts";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { SqliteWebhookDeliveries } from "../../shared/adapters/sqlite/webhook-deliveries.sqlite.ts";
import { pageIdSchema, userIdSchema, type UserId } from "../../shared/kernel/ids.ts";
import { pageCommands } from "../../shared/pages/page.commands.ts";
import { userCommands } from "../../shared/users/user.commands.ts";
import { webhookCommands } from "../../shared/webhooks/webhook.commands.ts";
import { webhookIdSchema } from "../../shared/webhooks/webhook.decider.ts";
import { newWebhookSecret, WebhookSecretSealer } from "../../shared/webhooks/webhook-secret.ts";
import { tempDir } from "../support/temp-dir.ts";

const logger = pino({ level: "silent" });
const sealer = new WebhookSecretSealer("a test key that is long enough to seal webhook secrets");
const context = (actorId: UserId) => ({ actorId, correlationId: randomUUID(), now: new Date() });

let dir: { path: string; remove: () => Promise<void> };
let eventStore: SqliteEventStore;
let readStore: SqliteReadStore | null;
let deliveries: SqliteWebhookDeliveries;

beforeEach(async () => {
  dir = await tempDir();
  eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"));
  deliveries = new SqliteWebhookDeliveries(join(dir.path, "webhooks.sqlite"));
  readStore = null;
});
afterEach(async () => {
  await readStore?.close();
  await deliveries.close();
  await eventStore.close();
  await dir.remove();
});

async function register(label: string): Promise<UserId> {
  const userId = userIdSchema.parse(randomUUID());
  await userCommands.handle(
    eventStore,
    userId,
    { type: "RegisterUser", userId, email: `${label}@example.com`, name: label, image: null, sessionIssuedAt: null },
    context(userId),
  );
  return userId;
}

async function createPage(ownerId: UserId): Promise<void> {
  const pageId = pageIdSchema.parse(randomUUID());
  await pageCommands.handle(
    eventStore,
    pageId,
    { type: "CreatePage", pageId, ownerId, parentId: null, title: "a page", icon: null, markdown: "" },
    context(ownerId),
  );
}

async function createWebhook(ownerId: UserId): Promise<string> {
  const webhookId = webhookIdSchema.parse(randomUUID());
  const settings = { url: "https://hooks.example.com/in", events: ["page.created" as const], description: null };
  await webhookCommands.handle(
    eventStore,
    webhookId,
    {
      type: "CreateWebhook",
      webhookId,
      ownerId,
      folderId: null,
      settings,
      sealedSecret: sealer.seal(webhookId, newWebhookSecret()),
    },
    context(ownerId),
  );
  return webhookId;
}

/** What the account's erasure writes about its webhook and itself. */
async function erase(userId: UserId, webhookId: string): Promise<void> {
  const now = new Date().toISOString();
  await userCommands.handle(eventStore, userId, { type: "StartErasure", userId, now }, context(userId));
  const id = webhookIdSchema.parse(webhookId);
  await webhookCommands.handle(
    eventStore,
    id,
    { type: "DeleteWebhook", webhookId: id, ownerId: userId },
    context(userId),
  );
  await userCommands.handle(eventStore, userId, { type: "EraseUser", userId, now }, context(userId));
}

/** Builds the read models from the log as it stands, then lets a notifier's follower catch up with them. */
async function projectAndFollow(): Promise<void> {
  await readStore?.close();
  const projection = new SqliteProjectionStore(join(dir.path, "read-models.sqlite"));
  await rebuildReadModels({ eventStore, store: projection, logger });
  await projection.close();
  readStore = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
  const follower = new WebhookWorker({
    eventStore,
    readStore,
    deliveries,
    sealer,
    logger,
    clock: () => new Date(),
    allowPrivateNetworks: false,
    retentionMs: 86_400_000,
    leaseMs: 60_000,
  });
  while (await follower.followOnce()) {
    // One step after another, as the worker runs them.
  }
}

describe("the webhook follower meets an erasure", () => {
  it("where only a webhook created after it is left, and forgets the erased owner's deliveries", async () => {
    const erased = await register("erased");
    const theirs = await createWebhook(erased);
    await createPage(erased);
    await projectAndFollow();
    expect(await deliveries.list(theirs, null, 10)).toHaveLength(1);

    await erase(erased, theirs);
    const other = await register("other");
    const kept = await createWebhook(other);
    await createPage(other);
    await projectAndFollow();
    expect(await deliveries.list(theirs, null, 10)).toEqual([]);
    expect(await deliveries.list(kept, null, 10)).toHaveLength(1);
  });

  it("where no webhook is left at all", async () => {
    const other = await register("other");
    const kept = await createWebhook(other);
    await createPage(other);
    const erased = await register("erased");
    const theirs = await createWebhook(erased);
    await createPage(erased);
    await projectAndFollow();
    expect(await deliveries.list(theirs, null, 10)).toHaveLength(1);

    const id = webhookIdSchema.parse(kept);
    await webhookCommands.handle(
      eventStore,
      id,
      { type: "DeleteWebhook", webhookId: id, ownerId: other },
      context(other),
    );
    await erase(erased, theirs);
    await projectAndFollow();
    expect(await deliveries.list(theirs, null, 10)).toEqual([]);
    expect(await deliveries.list(kept, null, 10)).toHaveLength(1);
  });
});
