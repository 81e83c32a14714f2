// "webhook deliveries": how many deliveries a second the all-in-one server's worker makes to a local receiver,
// and the p99 from an event's append (its occurredAt) to the receiver having it. A server of its own (fresh
// DATA_DIR, private networks allowed), WEBHOOKS webhooks on one receiver, PAGES pages created by WRITERS
// concurrent clients; every page makes one delivery per webhook. Run: npx tsx bench/webhooks.ts [pages] [webhooks]
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintSession } from "../shared/auth/session-verifier.ts";
import { startChild } from "./processes.ts";

const PAGES = Number(process.argv[2] ?? 500);
const WEBHOOKS = Number(process.argv[3] ?? 4);
const WRITERS = 8;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

async function main(): Promise<void> {
  const expected = PAGES * WEBHOOKS;
  const latencies: number[] = [];
  let firstAt = 0;
  let lastAt = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { occurredAt: string } };
      latencies.push(now - Date.parse(body.data.occurredAt));
      if (firstAt === 0) firstAt = now;
      lastAt = now;
      response.writeHead(204).end();
      if (latencies.length >= expected) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const secret = randomUUID().repeat(2);
  const dataDir = await mkdtemp(join(tmpdir(), "workspace-bench-webhooks-"));
  const server = await startChild(
    "services/all-in-one.ts",
    { DATA_DIR: dataDir, AUTH_SESSION_SECRET: secret, LOG_LEVEL: "warn", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" },
    "/readyz",
  );
  try {
    const cookie = `app-auth.session_token=${await mintSession(secret, { sub: randomUUID(), email: "bench@example.com", name: "Bench" })}`;
    const post = async (path: string, body: unknown) => {
      const reply = await fetch(`${server.url}/api/v1${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (reply.status >= 300) throw new Error(`${path}: ${reply.status} ${await reply.text()}`);
    };
    for (let index = 0; index < WEBHOOKS; index += 1)
      await post("/webhooks", { url: receiverUrl, events: ["page.created"] });
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < PAGES) {
          next += 1;
          await post("/pages", { title: `page ${next}` });
        }
      }),
    );
    const written = Date.now();
    const progress = setInterval(() => process.stderr.write(`received ${latencies.length}/${expected}\n`), 5000);
    await all;
    clearInterval(progress);
    const sorted = [...latencies].sort((a, b) => a - b);
    const seconds = (lastAt - started) / 1000;
    process.stdout.write(
      `${JSON.stringify({
        figure: "webhook deliveries to a local receiver",
        pages: PAGES,
        webhooks: WEBHOOKS,
        deliveries: latencies.length,
        writesPerSecond: Math.round(PAGES / ((written - started) / 1000)),
        deliveriesPerSecond: Math.round(latencies.length / seconds),
        appendToDeliveryMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) },
        drainAfterLastWriteMs: lastAt - written,
        firstDeliveryAfterStartMs: firstAt - started,
      })}\n`,
    );
  } finally {
    await server.stop();
    receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
