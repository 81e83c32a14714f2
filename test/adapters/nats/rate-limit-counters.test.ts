// The rate-limit counters contract against a real nats-server with JetStream: two connections stand for two
// processes sharing one KV bucket.
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, millis } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsRateLimitCounters } from "../../../shared/adapters/nats/nats-kv.rate-limit-counters.ts";
import { rateLimitCountersContract } from "../../contracts/rate-limit-counters.contract.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`NATS rate-limit counter tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("NATS KV rate-limit counters", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  rateLimitCountersContract("NATS KV", async () => {
    const counters = await NatsRateLimitCounters.connect(server.url, { maxWindowSeconds: 60 });
    const peer = await NatsRateLimitCounters.connect(server.url, { maxWindowSeconds: 60 });
    return {
      counters,
      peer,
      cleanup: async () => {
        await counters.close();
        await peer.close();
      },
    };
  });

  it("keeps counts across a restart of the server, and lengthens the bucket's TTL when a window grows", async () => {
    const first = await NatsRateLimitCounters.connect(server.url, { bucket: "ttl-test", maxWindowSeconds: 60 });
    await first.increment("write.x.1", 60);
    await first.close();
    await server.restart();
    const second = await NatsRateLimitCounters.connect(server.url, { bucket: "ttl-test", maxWindowSeconds: 3_600 });
    expect(await second.increment("write.x.1", 60)).toBe(2);
    await second.close();
    const connection = await connect({ servers: server.url });
    const stream = await (await jetstreamManager(connection)).streams.info("KV_ttl-test");
    await connection.close();
    expect(millis(stream.config.max_age)).toBe(3_600_000);
  });
});
