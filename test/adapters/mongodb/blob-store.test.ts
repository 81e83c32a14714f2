// The blob-store contract on real MongoDB GridFS: MONGODB_URL, or a container when a runtime answers.
import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { GridFsBlobStore } from "../../../shared/adapters/mongodb/gridfs.blob-store.ts";
import { blobStoreContract } from "../../contracts/blob-store.contract.ts";
import { mongoDbServer, reportSkip } from "../../support/production-servers.ts";

const server = await mongoDbServer();
const skipped = reportSkip("GridFS blob store contract", server);
afterAll(async () => {
  if (!("skip" in server)) await server.stop();
});

describe.skipIf(skipped)("GridFS", () => {
  if ("skip" in server) return;
  blobStoreContract("GridFS", async () => {
    const client = await MongoClient.connect(server.url);
    // A database per test: the listing test sees only its own blobs.
    const db = client.db(`blobs-${randomUUID()}`);
    return { store: new GridFsBlobStore(db, client), cleanup: async () => undefined };
  });
});
