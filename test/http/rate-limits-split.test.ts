// Rate limits in the split deployment: two query nodes, separate processes, count one caller against one
// budget through NATS KV. (The day-long window makes a window boundary during the test all but impossible.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../support/nats-server.ts";
import { Client, TEST_SESSION_SECRET } from "../support/server.ts";
import { startSplitServices, type SplitServices } from "../support/split-services.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`split rate-limit tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("rate limits across query nodes", () => {
  let nats: NatsServer;
  let split: SplitServices;
  beforeAll(async () => {
    nats = await startNatsServer();
    split = await startSplitServices({ queryNodes: 2, env: { NATS_URL: nats.url, RATE_LIMIT_READ: "4/1d" } });
  }, 120_000);
  afterAll(async () => {
    await split?.stop();
    await nats?.stop();
  });

  const callerOnEveryNode = async (email: string): Promise<Client[]> => {
    const cookie = await mintSession(TEST_SESSION_SECRET, { sub: crypto.randomUUID(), email, name: "Reader" });
    return split.queryApis.map((node) => new Client(node.url, { cookie }));
  };

  it("counts one caller's reads on two query nodes against one budget", async () => {
    const [first, second] = await callerOnEveryNode("reader@example.com");
    if (!first || !second) throw new Error("two query nodes expected");
    const answers = [await first.get("/me"), await second.get("/me"), await first.get("/me"), await second.get("/me")];
    expect(answers.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((reply) => reply.headers.get("ratelimit")?.replace(/;t=\d+$/, ""))).toEqual(['"read";r=3', '"read";r=2', '"read";r=1', '"read";r=0']);

    for (const node of [first, second]) {
      const refused = await node.get("/me");
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const [other] = await callerOnEveryNode("other@example.com");
    expect((await other?.get("/me"))?.status).toBe(200);
  });
});
