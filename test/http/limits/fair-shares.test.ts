// What requests share is shared per caller: one user (or an anonymous reader of their share links) at their worst
// does not take the worker pool from another user. Each test times a victim's ordinary request while the
// attacker's requests run, on loopback, bounded in time and count.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { attack, latencyWithin } from "../../support/noisy-neighbour.ts";
import { createShareLink, publicRequest } from "../../support/share-links.ts";
import { TestServer } from "../../support/server.ts";
import { createPage, historyPositions, replaceContent } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({ settings: { WORKER_THREADS: "1" } });
});
afterAll(async () => {
  await server.stop();
});

/** A victim's request waits less than this while the attacker runs; before the fair pool it waited tens of seconds. */
const VICTIM_DEADLINE_MS = 8_000;

/** About 478 KB of lines no other version shares. */
const unrelatedLines = (): string => Array.from({ length: 20_000 }, () => randomBytes(11).toString("hex")).join("\n");

it("one user's diffs of very different versions of a large page do not hold another user's diff", async () => {
  const mallory = await server.registered("mallory");
  const alice = await server.registered("alice");
  const large = await createPage(mallory, { markdown: unrelatedLines() });
  await replaceContent(mallory, large, unrelatedLines());
  await replaceContent(mallory, large, unrelatedLines());
  const [first, second] = await historyPositions(mallory, large);
  const small = await createPage(alice, { markdown: "one\ntwo\n" });
  await replaceContent(alice, small, "one\n2\n");
  const [from] = await historyPositions(alice, small);

  const diffs = attack(8, 3, async () => (await mallory.get(`/pages/${large}/diff?from=${first}&to=${second}`)).status);
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waited = await latencyWithin(VICTIM_DEADLINE_MS, async () =>
      expect((await alice.get(`/pages/${small}/diff?from=${from}`)).status).toBe(200),
    );
    expect(waited).toBeLessThan(VICTIM_DEADLINE_MS);
  } finally {
    diffs.stop();
  }
  const statuses = await diffs.statuses;
  // Each refused: as too large, or, past the user's diffs at once, as too many.
  expect(statuses.every((status) => status === 422 || status === 429)).toBe(true);
}, 60_000);

it("an anonymous reader rendering four share links of bracket storms does not hold another owner's share page", async () => {
  const mallory = await server.registered("mallory");
  const owner = await server.registered("owner");
  const storms = await Promise.all(
    ["a", "b", "c", "d"].map(
      async (suffix) =>
        (
          await createShareLink(
            mallory,
            "page",
            await createPage(mallory, { markdown: `${"[x]".repeat(40_000)}${suffix}` }),
          )
        ).path,
    ),
  );
  const ordinary = (
    await createShareLink(
      owner,
      "page",
      await createPage(owner, { markdown: "# Minutes\n\nWe agreed on **the plan**." }),
    )
  ).path;

  const readers = attack(
    4,
    3,
    async () => (await publicRequest(server.url, storms[Math.floor(Math.random() * storms.length)] ?? "")).status,
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waited = await latencyWithin(VICTIM_DEADLINE_MS, async () => {
      const page = await publicRequest(server.url, ordinary);
      expect(page.status).toBe(200);
      expect(page.text).toContain("<strong>the plan</strong>");
    });
    expect(waited).toBeLessThan(VICTIM_DEADLINE_MS);
  } finally {
    readers.stop();
  }
  await readers.statuses;
}, 60_000);
