// The operator tools over a real server's DATA_DIR: a point-in-time replay into a separate store equals what
// the history API answers for that instant, and the audit trail names actors and correlation ids.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import { inheritedEnv, productionStack, TestServer, type TestUser } from "../support/server.ts";
import { share } from "../support/workspace-builders.ts";

/** Every change of an entity, oldest first. */
const everyChange = { order: "asc" as const, from: null, limit: 1_000, withSharing: true };

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      env: { ...inheritedEnv(), ...productionStack(server.dataDir), DATA_DIR: server.dataDir, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

interface Item {
  position: string;
  occurredAt: string;
  type: string;
}

async function historyOf(user: TestUser, pageId: string): Promise<Item[]> {
  return (await user.get(`/pages/${pageId}/history?order=asc`)).body.data as Item[];
}

describe("point-in-time replay and the audit trail", () => {
  let owner: TestUser;
  let pageId: string;
  let items: Item[];
  beforeAll(async () => {
    owner = await server.registered("owner", { name: "Olive" });
    const ann = await server.registered("ann");
    const created = await owner.post("/pages", { title: "v1", markdown: "first" });
    pageId = String(created.body.id);
    await owner.patch(`/pages/${pageId}`, { title: "v2" });
    const etag = (await owner.get(`/pages/${pageId}/content`)).headers.get("etag") ?? "";
    await owner.call("PUT", `/pages/${pageId}/content`, {
      json: { markdown: "second" },
      headers: { "if-match": etag },
    });
    await share(owner, "page", pageId, ann.email, "view");
    await owner.patch(`/pages/${pageId}`, { title: "v3" });
    items = await historyOf(owner, pageId);
    expect(items.map((item) => item.type)).toEqual([
      "PageCreated",
      "PageRenamed",
      "PageContentReplaced",
      "AccessGranted",
      "PageRenamed",
    ]);
  });

  it("replays the state as of a position into a separate store, equal to the history's answer for it, with a progress bar", async () => {
    const until = items[2]?.position ?? "";
    const out = join(server.dataDir, "audit", "until-test.sqlite");
    const replay = await run("services/projector/replay.cli.ts", ["--until", until, "--out", out]);
    expect(replay.code).toBe(0);
    expect(replay.stderr).toMatch(/\[#+\.*\] [\d,]+ \/ [\d,]+ events/);
    expect(replay.stdout).toContain(`state as of position ${until} written to ${out}`);
    const then = new SqliteReadStore(out);
    try {
      const asOf = await owner.get(`/pages/${pageId}?at=${until}`);
      const content = await owner.get(`/pages/${pageId}/content?at=${until}`);
      const page = await then.pages.getContent(pageId);
      expect(page?.page.title).toBe(asOf.body.title);
      expect(page?.page.title).toBe("v2");
      expect(content.text.endsWith(`---\n${page?.markdown ?? "?"}`)).toBe(true);
      expect((await then.history.changesOf(pageId, everyChange)).map((change) => String(change.position))).toEqual(
        items.slice(0, 3).map((item) => item.position),
      );
      expect(await then.checkpoint()).toBe(Number(until));
    } finally {
      await then.close();
    }
    expect((await owner.get(`/pages/${pageId}`)).body.title).toBe("v3");
  });

  it("replays up to an ISO time, and refuses a bad --until", async () => {
    const at = items[3]?.occurredAt ?? "";
    const out = join(server.dataDir, "audit", "until-time.sqlite");
    expect((await run("services/projector/replay.cli.ts", ["--until", at, "--out", out])).code).toBe(0);
    const then = new SqliteReadStore(out);
    try {
      expect((await then.history.changesOf(pageId, everyChange)).length).toBeGreaterThanOrEqual(4);
      expect((await then.pages.get(pageId))?.title).toBe(
        (await owner.get(`/pages/${pageId}?at=${encodeURIComponent(at)}`)).body.title,
      );
    } finally {
      await then.close();
    }
    const bad = await run("services/projector/replay.cli.ts", ["--until", "yesterday"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--until");
  });

  it("prints an entity's history with actors and correlation ids, without email addresses", async () => {
    const audit = await run("services/projector/audit.cli.ts", ["--entity", pageId]);
    expect(audit.code).toBe(0);
    const lines = audit.stdout.trim().split("\n");
    expect(lines[0]).toBe(`entity ${pageId}: 5 events`);
    expect(lines.slice(1).map((line) => line.split("  ")[2])).toEqual(items.map((item) => item.type));
    for (const line of lines.slice(1))
      expect(line).toMatch(new RegExp(`by (Olive|ann) \\([0-9a-f-]{36}\\)  correlation \\S+`));
    expect(lines[2]).toContain('{"kind":"title","from":"v1","to":"v2"}');
    expect(audit.stdout).not.toContain("@example.com");
  });
});
