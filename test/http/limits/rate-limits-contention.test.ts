// A contended limiter against a real nats-server: a burst of one caller's requests is counted exactly by the
// shared counters (no more than the quota passes), and with NATS stopped the limiter counts in the process
// instead (still no more than the quota passes, and every answer says what is left, so none went through
// uncounted, and a caller counted in NATS before it stopped goes on from that count). The day-long window makes a
// window boundary during the test all but impossible.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { natsUnavailable, startNatsServer, type NatsServer } from "../../support/nats-server.ts";
import { TestServer, type TestUser } from "../../support/server.ts";

const unavailable = natsUnavailable();
if (unavailable) console.warn(`contended rate-limit tests skipped: ${unavailable}`);

const QUOTA = 50;

async function busIs(server: TestServer, state: "up" | "down"): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = (await (await fetch(`${server.url}/readyz`)).json()) as { dependencies?: { bus?: string } };
    if (body.dependencies?.bus === state) return;
    if (Date.now() > deadline) throw new Error(`the bus never became ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function burst(
  caller: TestUser,
  requests: number,
): Promise<{ passed: number; refused: number; uncounted: number }> {
  const answers = await Promise.all(Array.from({ length: requests }, () => caller.get("/me")));
  return {
    passed: answers.filter((answer) => answer.status === 200).length,
    refused: answers.filter((answer) => answer.status === 429).length,
    uncounted: answers.filter((answer) => answer.status === 200 && !answer.headers.get("ratelimit")).length,
  };
}

describe.skipIf(unavailable !== null)("a contended rate limit over NATS KV", () => {
  let nats: NatsServer;
  let server: TestServer;
  beforeAll(async () => {
    nats = await startNatsServer();
    server = await TestServer.start({ settings: { NATS_URL: nats.url, RATE_LIMIT_READ: `${QUOTA}/1d` } });
    await busIs(server, "up");
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await nats?.stop();
  });

  it("lets at most the quota of 200 concurrent requests of one caller through", async () => {
    const caller = await server.signIn(`burst-${randomUUID()}`);
    expect(await burst(caller, 200)).toEqual({ passed: QUOTA, refused: 200 - QUOTA, uncounted: 0 });
  });

  it("counts in the process while NATS is stopped: the quota still holds and no request goes uncounted", async () => {
    await nats.pause();
    try {
      await busIs(server, "down");
      const caller = await server.signIn(`outage-${randomUUID()}`);
      expect(await burst(caller, 200)).toEqual({ passed: QUOTA, refused: 200 - QUOTA, uncounted: 0 });
    } finally {
      await nats.resume();
    }
    await busIs(server, "up");
  });

  it("goes on from the shared count when NATS stops mid-window: one node lets no caller past its quota", async () => {
    const caller = await server.signIn(`midway-${randomUUID()}`);
    expect(await burst(caller, 30)).toEqual({ passed: 30, refused: 0, uncounted: 0 });
    await nats.pause();
    try {
      await busIs(server, "down");
      expect(await burst(caller, 200)).toEqual({ passed: QUOTA - 30, refused: 200 - (QUOTA - 30), uncounted: 0 });
    } finally {
      await nats.resume();
    }
    await busIs(server, "up");
  });
});
