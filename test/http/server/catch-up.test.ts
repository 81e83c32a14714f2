// A server started over a long log listens at once and answers while its projector catches up: /healthz says
// the process is up and /readyz says "catching_up" until the read models are within reach of the log. Before,
// the catch-up ran batch after batch without returning to the event loop, so nothing was answered (not even a
// connection) until it ended: about two minutes at 100,000 pages, past a container's health-check grace.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { SqliteEventStore } from "../../../shared/adapters/sqlite/sqlite.event-store.ts";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import type { DomainEvent } from "../../../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { startServiceProcess, type ServiceProcess } from "../../support/processes.ts";
import { TEST_SESSION_SECRET } from "../../support/server.ts";
import { tempDir } from "../../support/temp-dir.ts";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** 200 pages, each created and renamed 199 times: 40,000 events in 200 appends. */
async function seedLongLog(dataDir: string): Promise<void> {
  const store = new SqliteEventStore(join(dataDir, "events.sqlite"));
  const ownerId = userIdSchema.parse(randomUUID());
  for (let page = 0; page < 200; page += 1) {
    const pageId = pageIdSchema.parse(randomUUID());
    const events: DomainEvent[] = [
      {
        type: "PageCreated",
        data: { pageId, ownerId, parentId: null, title: "Title 0", icon: null, markdown: "Some words." },
      },
    ];
    for (let rename = 1; rename < 200; rename += 1)
      events.push({
        type: "PageRenamed",
        data: { pageId, title: `Title ${rename}`, previousTitle: `Title ${rename - 1}` },
      });
    await store.append(
      `page-${pageId}`,
      toNewEvents(events, { actorId: ownerId, correlationId: randomUUID(), now: new Date() }),
      "no_stream",
    );
  }
  await store.close();
}

it("answers /healthz, and /readyz with catching_up, while its projector catches up a long log", async () => {
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  await seedLongLog(dir.path);
  const server: ServiceProcess = await startServiceProcess("services/all-in-one.ts", {
    DATA_DIR: dir.path,
    AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
  });
  cleanups.push(() => server.stop());

  const first = await fetch(`${server.url}/readyz`);
  expect(first.status).toBe(503);
  expect(await first.json()).toMatchObject({ status: "catching_up", lag: "more than 1000 events" });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

  const deadline = Date.now() + 60_000;
  let ready = first.status === 200;
  while (!ready && Date.now() < deadline) {
    ready = (await fetch(`${server.url}/readyz`)).status === 200;
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(ready).toBe(true);
});
