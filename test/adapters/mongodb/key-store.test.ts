// The key store's contract on real MongoDB: MONGODB_URL, or a container when a runtime answers.
import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { MongoKeyStore } from "../../../shared/adapters/mongodb/mongo.key-store.ts";
import { keyStoreContract } from "../../contracts/key-store.contract.ts";
import { mongoDbServer, reportSkip } from "../../support/production-servers.ts";

const server = await mongoDbServer();
const skipped = reportSkip("MongoDB key store contract", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("MongoDB", () => {
  if ("skip" in server) return;
  keyStoreContract("MongoDB", async () => {
    const client = await MongoClient.connect(server.url);
    const db = client.db(`keys-${randomUUID()}`);
    return {
      open: (kek) => MongoKeyStore.open(db, kek),
      cleanup: async () => {
        await db.dropDatabase();
        await client.close();
      },
    };
  });
});
