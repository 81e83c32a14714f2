// The MCP Inspector's command-line mode (`@modelcontextprotocol/inspector --cli`, the maintained successor of
// the deprecated `@modelcontextprotocol/inspector-cli`), a client the project does not write, lists the tools
// and calls one against the real server with an API token.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "../support/server.ts";
import { createPage } from "../support/workspace-builders.ts";

const run = promisify(execFile);
const inspector = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")),
  "clients/launcher/build/index.js",
);

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

async function inspect(token: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [
      inspector,
      "--cli",
      `${server.url}/mcp`,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${token}`,
      ...args,
    ],
    {
      timeout: 60_000,
      // The Inspector keeps its catalog under HOME: a temporary one leaves the user's alone.
      env: { ...process.env, HOME: server.dataDir, MCP_CATALOG_PATH: join(server.dataDir, "inspector-catalog.json") },
    },
  );
  return JSON.parse(stdout);
}

describe("the MCP Inspector's command line", () => {
  it("lists the tools of a pages:read token and calls resolve_page", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Inspected" });
    const created = await owner.post("/tokens", { name: "inspector", scopes: ["pages:read"] });
    const token = String(created.body.token);
    const listed = (await inspect(token, "--method", "tools/list")) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([
      "diff_page",
      "list_attachments",
      "list_folders",
      "list_notifications",
      "list_pages",
      "list_people",
      "list_share_links",
      "list_templates",
      "mark_notifications_read",
      "page_backlinks",
      "page_history",
      "read_page",
      "resolve_page",
      "search",
    ]);
    const called = (await inspect(
      token,
      "--method",
      "tools/call",
      "--tool-name",
      "resolve_page",
      "--tool-arg",
      "title=Inspected",
    )) as { structuredContent: { pages: Array<{ id: string }> } };
    expect(called.structuredContent.pages.map((page) => page.id)).toEqual([pageId]);
  }, 120_000);
});
