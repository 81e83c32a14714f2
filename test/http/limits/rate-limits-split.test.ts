// Rate limits in the split deployment: two query nodes, separate processes, count one caller against one
// budget through NATS KV; behind the gateway, an unauthenticated caller is counted by its own address.
// (The day-long window makes a window boundary during the test all but impossible.)
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { gatewayUnavailable, type Gateway } from "../../support/gateway.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";
import { Client, TEST_SESSION_SECRET } from "../../support/server.ts";
import { startSplitBehindGateway, type SplitServices } from "../../support/split-services.ts";

const unavailable = natsUnavailable() ?? gatewayUnavailable();
if (unavailable) console.warn(`split rate-limit tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("rate limits across query nodes", () => {
  let nats: NatsServer;
  let split: SplitServices;
  let gateway: Gateway;
  beforeAll(async () => {
    nats = await startNatsServer();
    // The services believe X-Forwarded-For only from the gateway's own address.
    ({ split, gateway } = await startSplitBehindGateway({
      queryNodes: 2,
      env: { NATS_URL: nats.url, RATE_LIMIT_READ: "4/1d", TRUST_PROXY: "127.0.0.1" },
    }));
    // A node counts in its own memory until its connection to NATS is up (it starts without waiting for it).
    for (const node of split.queryApis) {
      const deadline = Date.now() + 30_000;
      while (
        ((await (await fetch(`${node.url}/readyz`)).json()) as { dependencies?: { bus?: string } }).dependencies
          ?.bus !== "up"
      ) {
        if (Date.now() > deadline) throw new Error(`${node.url} never reached NATS`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
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
    expect(answers.map((reply) => reply.headers.get("ratelimit")?.replace(/;t=\d+$/, ""))).toEqual([
      '"read";r=3',
      '"read";r=2',
      '"read";r=1',
      '"read";r=0',
    ]);

    for (const node of [first, second]) {
      const refused = await node.get("/me");
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const [other] = await callerOnEveryNode("other@example.com");
    expect((await other?.get("/me"))?.status).toBe(200);
  });

  /** A GET through the gateway from one of this machine's loopback addresses, as a distinct client would. */
  const getFrom = (
    localAddress: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; ratelimit: string | undefined }> =>
    new Promise((resolve, reject) => {
      const sent = request(`${gateway.url}${path}`, { localAddress, headers }, (response) => {
        response.resume();
        response.once("end", () =>
          resolve({ status: response.statusCode ?? 0, ratelimit: [response.headers.ratelimit].flat()[0] }),
        );
      });
      sent.once("error", reject);
      sent.end();
    });

  it("counts unauthenticated callers behind the gateway by their own address, which a forged X-Forwarded-For does not change", async () => {
    const answers = [];
    for (let n = 0; n < 4; n += 1) answers.push((await getFrom("127.0.0.2", "/api/v1/openapi.json")).status);
    expect(answers).toEqual([200, 200, 200, 200]);
    expect((await getFrom("127.0.0.2", "/api/v1/openapi.json")).status).toBe(429);
    expect((await getFrom("127.0.0.2", "/api/v1/openapi.json", { "x-forwarded-for": "203.0.113.7" })).status).toBe(429);
    const other = await getFrom("127.0.0.3", "/api/v1/openapi.json");
    expect(other.status).toBe(200);
    expect(other.ratelimit?.replace(/;t=\d+$/, "")).toBe('"read";r=3');
  });
});
