// The webhook delivery log's contract on real MongoDB: MONGODB_URL, or a container when a runtime answers.
import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { MongoWebhookDeliveries } from "../../../shared/adapters/mongodb/webhook-deliveries.mongo.ts";
import { webhookDeliveriesContract } from "../../contracts/webhook-deliveries.contract.ts";
import { mongoDbServer, reportSkip } from "../../support/production-servers.ts";

const server = await mongoDbServer();
const skipped = reportSkip("MongoDB webhook delivery log contract", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("MongoDB", () => {
  if ("skip" in server) return;
  webhookDeliveriesContract("MongoDB", async () => {
    const client = await MongoClient.connect(server.url);
    const db = client.db(`webhooks-${randomUUID()}`);
    return {
      store: await MongoWebhookDeliveries.open(db),
      second: () => MongoWebhookDeliveries.open(db),
      cleanup: async () => {
        await db.dropDatabase();
        await client.close();
      },
    };
  });
});
