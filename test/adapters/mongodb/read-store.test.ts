// The read-store contract on real MongoDB (MONGODB_URL, or a container when a runtime answers), and what only
// the MongoDB adapter does: the indexes it creates at start, and a replay into the next generation that
// switches readers and the live projector over only once it has caught up.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { MongoClient, type Db } from "mongodb";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { replayAndSwitch } from "../../../services/projector/rebuild.ts";
import { Projector } from "../../../services/projector/projector.ts";
import {
  MONGO_READ_MODEL_VERSION,
  mongoIndexes,
  MongoProjectionStore,
  MongoReadStore,
  supportsTransactions,
} from "../../../shared/adapters/mongodb/mongo.read-store.ts";
import { SqliteEventStore } from "../../../shared/adapters/sqlite/sqlite.event-store.ts";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { readStoreContract } from "../../contracts/read-store.contract.ts";
import { mongoDbServer, reportSkip, type ServerTarget } from "../../support/production-servers.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** The contract's all-or-nothing batches need transactions: a standalone server is reported and skipped. */
async function replicaSet(): Promise<ServerTarget> {
  const found = await mongoDbServer();
  if ("skip" in found) return found;
  const client = await MongoClient.connect(found.url);
  try {
    if (await supportsTransactions(client.db())) return found;
  } finally {
    await client.close();
  }
  await found.stop();
  return {
    skip: "MONGODB_URL names a standalone server; the read models' contract needs a replica set (transactions)",
  };
}

const server = await replicaSet();
const skipped = reportSkip("MongoDB read-store contract", server);
const clients: MongoClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("MongoDB read models", () => {
  if ("skip" in server) return;
  const { url } = server;
  /** A database of its own per test, dropped afterwards. */
  const freshDb = async (): Promise<Db> => {
    const client = await MongoClient.connect(url);
    clients.push(client);
    return client.db(`read-models-${randomUUID()}`);
  };

  readStoreContract("MongoDB", async () => {
    const db = await freshDb();
    const projection = await MongoProjectionStore.open(db);
    const reader = await MongoReadStore.open(db);
    const cleanup = async () => {
      await reader.close();
      await projection.close();
      await db.dropDatabase();
    };
    const newerRelease = {
      // What a newer release's replay leaves: the active generation laid out by a higher version.
      layOut: async () =>
        void (await db
          .collection<{ _id: string; version: number }>("read_model_meta")
          .updateOne({ _id: "active" }, { $set: { version: MONGO_READ_MODEL_VERSION + 1 } })),
      openProjection: () => MongoProjectionStore.open(db),
    };
    return { projection, reader, cleanup, newerRelease };
  });

  it("creates every listed index at start, and again without error on the next start", async () => {
    const db = await freshDb();
    const store = await MongoProjectionStore.open(db);
    await MongoProjectionStore.open(db);
    for (const index of mongoIndexes) {
      const names = (await db.collection(`rm${store.generation}_${index.collection}`).indexes()).map(
        (found) => found.name,
      );
      expect(names).toContain(index.name);
    }
    await db.dropDatabase();
  });

  it("replays into the next generation while the live one serves, then switches readers and the projector over", async () => {
    const db = await freshDb();
    const dir = await tempDir();
    const eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"));
    const logger = pino({ level: "silent" });
    const owner = userIdSchema.parse(randomUUID());
    const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
    const createPage = async (title: string) => {
      const pageId = pageIdSchema.parse(randomUUID());
      await eventStore.append(
        `page-${pageId}`,
        toNewEvents(
          [{ type: "PageCreated", data: { pageId, ownerId: owner, parentId: null, title, icon: null, markdown: "" } }],
          context,
        ),
        "no_stream",
      );
      return pageId;
    };
    const live = await MongoProjectionStore.open(db);
    const reader = await MongoReadStore.open(db);
    const projector = new Projector({ eventStore, store: live, logger, retryDelayMs: 20 });
    const before = await createPage("Before the replay");
    await projector.start();
    await expect.poll(() => reader.pages.get(before)).not.toBeNull();

    const next = await MongoProjectionStore.openNextGeneration(db);
    expect(next.generation).toBe(live.generation + 1);
    const switched = await replayAndSwitch({ eventStore, store: next, logger, graceMs: 1_500 });
    expect(switched.replaced).toBe(live.generation);
    const after = await createPage("After the switch");
    // The reader follows the switch within a second; the projector, refused by the old generation, carries on in the new one.
    await expect.poll(() => reader.pages.get(after), { timeout: 10_000 }).not.toBeNull();
    expect(await reader.pages.get(before)).not.toBeNull();
    expect(await reader.checkpoint()).toBe(await eventStore.headPosition());
    const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((found) => found.name);
    expect(collections.some((name) => name.startsWith(`rm${switched.replaced}_`))).toBe(false);

    await projector.stop();
    await reader.close();
    await eventStore.close();
    await dir.remove();
    await db.dropDatabase();
  });
});
