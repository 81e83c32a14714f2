// DIFFS_PER_USER bounds one user's diffs at once in a process, whether asked over HTTP or through the MCP
// diff_page tool: both call the one capability function that takes the slot. Another user's export holds the only
// worker thread, so the HTTP diff waits for it, holding its slot, while the tool call is made.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectAgent } from "../../mcp/mcp-client.ts";
import { TestServer } from "../../support/server.ts";
import { exportVault } from "../../support/vault-zip.ts";
import { createPage, replaceContent } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    settings: { WORKER_THREADS: "1", DIFFS_PER_USER: "1", WORKER_TASK_TIME_LIMIT_MS: "3000" },
  });
});
afterAll(async () => {
  await server.stop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("a user's diff over HTTP takes their one diff at once from the MCP diff_page tool, which is refused with too_many_tasks", async () => {
  const bob = await server.registered("bob");
  await createPage(bob, { title: "Brackets", markdown: "[x]".repeat(40_000) });
  const ann = await server.registered("ann");
  const pageId = await createPage(ann, { markdown: "one\ntwo\n" });
  await replaceContent(ann, pageId, "one\n2\n");
  const history = await ann.get(`/pages/${pageId}/history?order=asc`);
  const [from] = (history.body.data as Array<{ position: string }>).map((item) => item.position);
  const created = await ann.post("/tokens", { name: "agent", scopes: ["pages:read"] });
  const agent = await connectAgent(server.url, String(created.body.token));
  try {
    // Bob's export parses 40,000 brackets on the only thread until the task's time limit.
    const exporting = exportVault(bob);
    await pause(500);
    const overHttp = ann.get(`/pages/${pageId}/diff?from=${from}`);
    await pause(200);
    expect(await agent.refused("diff_page", { pageId, from })).toMatchObject({
      code: "too_many_tasks",
      message: expect.stringMatching(/at most 1 diffs/),
    });
    expect((await overHttp).status).toBe(200);
    expect((await exporting).status).toBe(200);
    // The slot is given back when the diff ends.
    expect((await agent.call("diff_page", { pageId, from })).unified).toContain("-two\n+2");
  } finally {
    await agent.close();
  }
}, 60_000);
