import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../support/server.ts";
import { createFolder, createPage } from "../support/workspace-builders.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectAgent, type Agent } from "./mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const READING = [
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
];
const COMMENTING = ["comment_on_page", "list_comments", "resolve_thread"];
const WRITING = [
  "append_to_page",
  "create_folder",
  "create_page",
  "create_share_link",
  "delete_page",
  "edit_page",
  "move_page",
  "rename_page",
  "replace_page_content",
  "restore_from_trash",
  "restore_page_version",
  "revoke_share_link",
];

async function tokenOf(
  user: TestUser,
  scopes: string[],
  name = `agent ${scopes.join(" ")}`,
): Promise<{ id: string; secret: string }> {
  const created = await user.post("/tokens", { name, scopes });
  expect(created.status).toBe(201);
  return { id: String(created.body.id), secret: String(created.body.token) };
}

async function agentOf(user: TestUser, scopes: string[], name?: string): Promise<Agent> {
  return connectAgent(server.url, (await tokenOf(user, scopes, name)).secret);
}

describe("the MCP server", () => {
  it("without a token answers 401 pointing at its protected-resource metadata, which describes the scopes and how tokens are made", async () => {
    const reply = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(reply.status).toBe(401);
    const challenge = reply.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/,
    );
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    const url = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
    const metadata = (await (await fetch(url)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      resource: `${server.url}/mcp`,
      scopes_supported: ["pages:read", "pages:comment", "pages:write"],
      bearer_methods_supported: ["header"],
    });
    expect(String(metadata.token_creation)).toContain("POST");
    expect(String(metadata.token_creation)).toContain("/api/v1/tokens");
  });

  it("initializes on the SDK's newest protocol revision and lists only the tools the token's scopes allow, each with schemas and hints", async () => {
    const owner = await server.registered("owner");
    const reader = await agentOf(owner, ["pages:read"]);
    expect(reader.transport.protocolVersion).toBe("2025-11-25");
    const readTools = (await reader.client.listTools()).tools;
    expect(readTools.map((tool) => tool.name).sort()).toEqual(READING);
    for (const tool of readTools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      // Marking one's own notifications read needs no more than reading them, as on POST /notifications/read.
      const readOnly = tool.name !== "mark_notifications_read";
      expect(tool.annotations).toMatchObject({ readOnlyHint: readOnly, destructiveHint: false });
    }
    const everything = await agentOf(owner, ["pages:read", "pages:comment", "pages:write"]);
    const all = (await everything.client.listTools()).tools;
    expect(all.map((tool) => tool.name).sort()).toEqual([...READING, ...COMMENTING, ...WRITING].sort());
    expect(all.find((tool) => tool.name === "delete_page")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(all.find((tool) => tool.name === "edit_page")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    const writer = await agentOf(owner, ["pages:write"]);
    expect((await writer.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(WRITING);
    await Promise.all([reader.close(), everything.close(), writer.close()]);
  });

  it("calls every tool through the API's rules", async () => {
    const owner = await server.registered("owner");
    const agent = await agentOf(owner, ["pages:read", "pages:comment", "pages:write"]);
    const folder = await agent.call("create_folder", { name: "Projects" });
    const folderId = String((folder.folder as { id: string }).id);
    const sub = await agent.call("create_folder", { name: "2026", parentId: folderId });
    const created = await agent.call("create_page", { title: "Roadmap", markdown: "Ship the importer.\n", folderId });
    expect(created).toMatchObject({ status: "done", page: { title: "Roadmap", folderPath: "Projects" } });
    const pageId = String(created.id);
    const appended = await agent.call("append_to_page", { pageId, text: "Then the exporter.\n" });
    const read = await agent.call("read_page", { pageId });
    expect(read).toMatchObject({ markdown: "Ship the importer.\nThen the exporter.\n", etag: appended.etag });
    const edited = await agent.call("edit_page", {
      pageId,
      etag: read.etag,
      edits: [{ oldText: "the exporter", newText: "the vault exporter" }],
    });
    const replaced = await agent.call("replace_page_content", { pageId, etag: edited.etag, markdown: "Everything.\n" });
    await agent.call("rename_page", { pageId, title: "Plan", icon: "🗺️" });
    expect((await agent.call("resolve_page", { title: "plan", folderPath: "projects" })).pages).toMatchObject([
      { id: pageId, folderPath: "Projects" },
    ]);
    expect((await agent.call("search", { query: "everything" })).results).toMatchObject([{ id: pageId }]);
    const listed = await agent.call("list_pages", { folderId });
    expect(listed).toMatchObject({
      pages: [{ id: pageId }],
      folders: [{ id: (sub.folder as { id: string }).id, name: "2026" }],
      nextCursor: null,
    });
    expect((await agent.call("list_folders", {})).folders).toHaveLength(2);
    const moved = await agent.call("move_page", { pageId, folderId: null });
    expect(moved.page).toMatchObject({ folderPath: "" });
    const thread = await agent.call("comment_on_page", {
      pageId,
      body: "Too vague?",
      anchor: { quote: "Everything." },
    });
    const threadId = String((thread.thread as { id: string }).id);
    await agent.call("comment_on_page", { pageId, threadId, body: "Agreed." });
    expect((await agent.call("resolve_thread", { pageId, threadId })).thread).toMatchObject({ status: "resolved" });
    expect((await agent.call("list_comments", { pageId, status: "all" })).threads).toMatchObject([
      { id: threadId, comments: [{ body: "Too vague?" }, { body: "Agreed." }] },
    ]);
    const history = await agent.call("page_history", { pageId, order: "asc" });
    const positions = (history.changes as Array<{ position: string }>).map((change) => change.position);
    const diff = await agent.call("diff_page", { pageId, from: positions[0], to: positions[3] });
    expect(diff.unified).toContain("-Ship the importer.");
    expect(diff.unified).toContain("+Everything.");
    const current = await agent.call("read_page", { pageId });
    const restored = await agent.call("restore_page_version", { pageId, at: positions[0], etag: current.etag });
    expect(restored.page).toMatchObject({ title: "Roadmap" });
    expect((await agent.call("read_page", { pageId })).markdown).toBe("Ship the importer.\n");
    expect(replaced.status).toBe("done");
    await agent.call("delete_page", { pageId });
    expect(await agent.refused("read_page", { pageId })).toEqual({ code: "not_found", message: "page not found" });
    expect((await agent.call("restore_from_trash", { type: "page", id: pageId })).page).toMatchObject({ id: pageId });
    await agent.close();
  });

  it("lists the pages the caller can view as resources, paged, and reads one as markdown", async () => {
    const owner = await server.registered("owner");
    const pageIds: string[] = [];
    for (let index = 0; index < 55; index += 1)
      pageIds.push(await createPage(owner, { title: `Note ${index}`, markdown: `body ${index}` }));
    const agent = await agentOf(owner, ["pages:read"]);
    const first = await agent.client.listResources();
    expect(first.resources).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await agent.client.listResources({ cursor: first.nextCursor });
    expect(second.resources).toHaveLength(5);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.resources, ...second.resources].map((resource) => resource.uri).sort()).toEqual(
      pageIds.map((id) => `workspace://pages/${id}`).sort(),
    );
    const read = await agent.client.readResource({ uri: `workspace://pages/${pageIds[0]}` });
    expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown" });
    const [content] = read.contents;
    const text = content && "text" in content ? content.text : "";
    expect(text).toContain('title: "Note 0"');
    expect(text).toContain("body 0");
    await agent.close();
  });

  it("notifies a subscribed page resource when the page changes", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Watched", markdown: "v1" });
    const agent = await agentOf(owner, ["pages:read"]);
    const updated = new Promise<string>((resolve) => {
      agent.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        resolve(notification.params.uri),
      );
    });
    await agent.client.subscribeResource({ uri: `workspace://pages/${pageId}` });
    // The server's stream (GET /mcp) carries the notification; the client opens it after initialize.
    await expect
      .poll(async () => (await owner.patch(`/pages/${pageId}`, { title: `Watched ${Date.now()}` })).status, {
        timeout: 5_000,
      })
      .toBe(200);
    expect(await updated).toBe(`workspace://pages/${pageId}`);
    await agent.close();
  });

  it("ends a session with DELETE, after which its id is unknown", async () => {
    const owner = await server.registered("owner");
    const agent = await agentOf(owner, ["pages:read"]);
    const sessionId = agent.transport.sessionId ?? "";
    await agent.transport.terminateSession();
    const token = await tokenOf(owner, ["pages:read"]);
    const after = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token.secret}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
  });

  it("replays a creating tool called again with the same idempotency key, and refuses the key with other arguments", async () => {
    const owner = await server.registered("owner");
    const agent = await agentOf(owner, ["pages:read", "pages:write"]);
    const first = await agent.call("create_page", { title: "Once", idempotencyKey: "k-1" });
    const again = await agent.call("create_page", { title: "Once", idempotencyKey: "k-1" });
    expect(again.id).toBe(first.id);
    expect((await agent.call("resolve_page", { title: "Once" })).pages).toHaveLength(1);
    expect((await agent.refused("create_page", { title: "Twice", idempotencyKey: "k-1" })).code).toBe(
      "idempotency_key_mismatch",
    );
    await agent.close();
  });

  it("connects as the README's desktop-client configuration says", async () => {
    const owner = await server.registered("owner");
    const section =
      /## Connecting an agent \(MCP\)[\s\S]*?```json\n([\s\S]*?)```/.exec(readFileSync("README.md", "utf8"))?.[1] ?? "";
    const secret = (await tokenOf(owner, ["pages:read", "pages:comment"])).secret;
    const config = JSON.parse(section) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const entry = config.mcpServers.workspace;
    expect(entry?.type).toBe("http");
    const url = new URL(new URL(entry?.url ?? "").pathname, server.url);
    const headers = Object.fromEntries(
      Object.entries(entry?.headers ?? {}).map(([name, value]) => [name, value.replace("pat_...", secret)]),
    );
    const client = new Client({ name: "desktop", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      [...READING, ...COMMENTING].sort(),
    );
    await client.close();
  });

  it("lets a session cookie connect too", async () => {
    const owner = await server.registered("owner");
    const folderId = await createFolder(owner, { name: "Mine" });
    const cookie = owner.credentials && "cookie" in owner.credentials ? owner.credentials.cookie : "";
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", server.url), {
      requestInit: { headers: { cookie: `app-auth.session_token=${cookie}` } },
    });
    const client = new Client({ name: "browser", version: "1" });
    await client.connect(transport);
    expect((await client.listTools()).tools).toHaveLength(READING.length + COMMENTING.length + WRITING.length);
    const listed = await client.callTool({ name: "list_folders", arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).toContain(folderId);
    await client.close();
  });
});
