// An agent's session with the official client, and what an outsider can and cannot reach through the tools.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../support/server.ts";
import { createFolder, createPage, share } from "../support/workspace-builders.ts";
import { connectAgent } from "./mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

async function tokenOf(user: TestUser, scopes: string[], name: string): Promise<{ id: string; secret: string }> {
  const created = await user.post("/tokens", { name, scopes });
  expect(created.status).toBe(201);
  return { id: String(created.body.id), secret: String(created.body.token) };
}

const RELEASE = "# Release\n\nThe release ships on Monday. It includes the importer.\n\nQuestions go to the team.\n";

describe("an agent's session", () => {
  it("resolves, reads, edits a sentence under its ETag, sees exactly that change, undoes it, and history names its token", async () => {
    const owner = await server.registered("owner", { name: "Olive" });
    const folderId = await createFolder(owner, { name: "Docs" });
    const pageId = await createPage(owner, { title: "Release notes", parentId: folderId, markdown: RELEASE });
    const token = await tokenOf(owner, ["pages:read", "pages:write"], "release agent");
    const agent = await connectAgent(server.url, token.secret);

    const found = await agent.call("resolve_page", { title: "release notes", folderPath: "Docs" });
    expect(found.pages).toMatchObject([{ id: pageId }]);
    const read = await agent.call("read_page", { pageId });
    expect(read.markdown).toBe(RELEASE);
    const [before] = (await agent.call("page_history", { pageId })).changes as Array<{ position: string }>;

    const edited = await agent.call("edit_page", {
      pageId,
      etag: read.etag,
      edits: [{ oldText: "ships on Monday", newText: "ships on Tuesday" }],
    });
    expect(edited).toMatchObject({ status: "done", id: pageId });
    expect(edited.etag).not.toBe(read.etag);
    const stale = await agent.refused("edit_page", {
      pageId,
      etag: read.etag,
      edits: [{ oldText: "the importer", newText: "the exporter" }],
    });
    expect(stale.code).toBe("precondition_failed");

    const diff = await agent.call("diff_page", { pageId, from: before?.position });
    expect(diff).toMatchObject({ linesAdded: 1, linesRemoved: 1, title: null, icon: null });
    expect(diff.hunks).toMatchObject([
      {
        lines: expect.arrayContaining([
          "-The release ships on Monday. It includes the importer.",
          "+The release ships on Tuesday. It includes the importer.",
        ]),
      },
    ]);
    const changed = (diff.hunks as Array<{ lines: string[] }>).flatMap((hunk) =>
      hunk.lines.filter((line) => /^[-+]/.test(line)),
    );
    expect(changed).toEqual([
      "-The release ships on Monday. It includes the importer.",
      "+The release ships on Tuesday. It includes the importer.",
    ]);

    const restored = await agent.call("restore_page_version", { pageId, at: before?.position, etag: edited.etag });
    expect(restored.status).toBe("done");
    expect((await agent.call("read_page", { pageId })).markdown).toBe(RELEASE);

    const history = await owner.get(`/pages/${pageId}/history?order=asc`);
    const entries = history.body.data as Array<{
      type: string;
      actor: { id: string; name: string; token?: { id: string; name: string } };
    }>;
    expect(entries.map((entry) => entry.type)).toEqual(["PageCreated", "PageContentReplaced", "PageRestored"]);
    expect(entries[0]?.actor).toEqual({ id: owner.id, name: "Olive" });
    expect(entries[1]?.actor).toEqual({ id: owner.id, name: "Olive", token: { id: token.id, name: "release agent" } });
    expect(entries[2]?.actor.token).toEqual({ id: token.id, name: "release agent" });
    await agent.close();
  });

  it("refuses an edit whose passage is found nowhere or several times, saying so, and changes nothing", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Twice", markdown: "a cat and a cat\n" });
    const agent = await connectAgent(
      server.url,
      (await tokenOf(owner, ["pages:read", "pages:write"], "editor")).secret,
    );
    const { etag } = await agent.call("read_page", { pageId });
    const several = await agent.refused("edit_page", { pageId, etag, edits: [{ oldText: "a cat", newText: "a dog" }] });
    expect(several).toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/edits\[0\]\.oldText: found several times/),
    });
    const none = await agent.refused("edit_page", {
      pageId,
      etag,
      edits: [
        { oldText: "a cat and", newText: "one cat and" },
        { oldText: "a bird", newText: "x" },
      ],
    });
    expect(none).toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/edits\[1\]\.oldText: not found/),
    });
    expect((await agent.call("read_page", { pageId })).markdown).toBe("a cat and a cat\n");
    await agent.close();
  });
});

describe("an outsider's agent", () => {
  it("finds another user's page missing, exactly as a random id", async () => {
    const owner = await server.registered("owner");
    const outsider = await server.registered("outsider");
    const pageId = await createPage(owner, { title: "Private", markdown: "secret" });
    const agent = await connectAgent(
      server.url,
      (await tokenOf(outsider, ["pages:read", "pages:comment", "pages:write"], "outsider")).secret,
    );
    for (const [tool, args] of [
      ["read_page", {}],
      ["page_history", {}],
      ["diff_page", { from: "1" }],
      ["edit_page", { etag: `"${pageId}.0"`, edits: [{ oldText: "secret", newText: "mine" }] }],
      ["delete_page", {}],
      ["comment_on_page", { body: "hi", anchor: { quote: "secret" } }],
    ] as const) {
      const theirs = await agent.refused(tool, { pageId, ...args });
      const unknown = await agent.refused(tool, { pageId: crypto.randomUUID(), ...args });
      expect(theirs, tool).toEqual(unknown);
      expect(theirs.code, tool).toBe("not_found");
    }
    expect((await agent.call("search", { query: "secret" })).results).toEqual([]);
    expect((await agent.call("resolve_page", { title: "Private" })).pages).toEqual([]);
    await expect(agent.client.readResource({ uri: `workspace://pages/${pageId}` })).rejects.toThrow(/page not found/);
    expect((await owner.get(`/pages/${pageId}/content`)).text).toContain("secret");
    await agent.close();
  });

  it("never learns the name of a folder it cannot view, above a page shared with it", async () => {
    const owner = await server.registered("owner");
    const reader = await server.registered("reader");
    const folderId = await createFolder(owner, { name: "Secret plans" });
    const pageId = await createPage(owner, { title: "Shared note", parentId: folderId, markdown: "hello" });
    expect((await share(owner, "page", pageId, reader.email, "edit")).status).toBeLessThan(300);
    const agent = await connectAgent(
      server.url,
      (await tokenOf(reader, ["pages:read", "pages:write"], "reader agent")).secret,
    );
    const seen = JSON.stringify([
      await agent.call("read_page", { pageId }),
      await agent.call("resolve_page", { title: "Shared note" }),
      await agent.call("search", { query: "hello" }),
      await agent.call("list_pages", {}),
      await agent.call("list_folders", {}),
      await agent.call("page_history", { pageId }),
      await agent.call("append_to_page", { pageId, text: "\nmore" }),
      await agent.client.readResource({ uri: `workspace://pages/${pageId}` }),
      await agent.client.listResources(),
    ]);
    expect(seen).toContain("Shared note");
    expect(seen).not.toContain("Secret plans");
    expect(seen).not.toContain(folderId);
    expect((await agent.call("resolve_page", { title: "Shared note", folderPath: "Secret plans" })).pages).toEqual([]);
    expect((await agent.call("list_pages", { folderId })).pages).toEqual([]);
    await agent.close();
  });

  it("with a token without pages:write does not see create_page, and calling it is a 403 naming pages:write that creates nothing", async () => {
    const owner = await server.registered("owner");
    const agent = await connectAgent(server.url, (await tokenOf(owner, ["pages:read"], "reader")).secret);
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).not.toContain("create_page");
    await expect(agent.client.callTool({ name: "create_page", arguments: { title: "Sneaky" } })).rejects.toThrow(
      /insufficient_scope/,
    );
    expect((await owner.get("/pages/resolve?title=Sneaky")).body.data).toEqual([]);
    await agent.close();
  });

  it("loses its session when its token is revoked mid-session: the server's stream ends and every request is 401", async () => {
    const owner = await server.registered("owner");
    const token = await tokenOf(owner, ["pages:read"], "soon revoked");
    const headers = {
      authorization: `Bearer ${token.secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const initialize = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    expect(initialize.status).toBe(200);
    const sessionId = initialize.headers.get("mcp-session-id") ?? "";
    const inSession = { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    expect(
      (
        await fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: inSession,
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        })
      ).status,
    ).toBe(202);
    const stream = await fetch(`${server.url}/mcp`, {
      method: "GET",
      headers: { ...inSession, accept: "text/event-stream" },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    const ended = (async () => {
      for (;;) if ((await reader?.read())?.done !== false) return true;
    })();

    expect((await owner.delete(`/tokens/${token.id}`)).status).toBe(204);
    expect(await ended).toBe(true);
    const after = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: inSession,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain("resource_metadata=");
  });
});
